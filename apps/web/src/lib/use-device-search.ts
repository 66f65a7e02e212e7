import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { deviceRoutes } from '@iot/contract/plain';
import { api } from './api';
import { deviceKeys } from './query-keys';
import { useDebounced } from './use-debounced';

/**
 * A device picker's search (GET /device/seachList, SN or name): the text typed (`setQ`), debounced,
 * and the devices found, up to 20. Shared by the SIM card form and the store's stock drawer.
 */
export function useDeviceSearch() {
  const [q, setQ] = useState('');
  const text = useDebounced(q.trim(), 250);
  const found = useQuery({
    queryKey: deviceKeys.search(text),
    queryFn: () => api(deviceRoutes.search, { query: { q: text, limit: 20 } }),
    enabled: text.length > 0,
  });
  return { setQ, text, devices: found.data ?? [] };
}
