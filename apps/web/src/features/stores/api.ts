import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { storeRoutes } from '@iot/contract/plain';
import type { EndpointQuery, StoreFields } from '@iot/contract';
import { api } from '../../lib/api';
import { feedbackMessage } from '../../lib/feedback';
import i18n from '../../lib/i18n';
import { rentalKeys, storeKeys } from '../../lib/query-keys';

export type StoreListParams = EndpointQuery<typeof storeRoutes.list>;
export type StoreSort = NonNullable<StoreListParams['sort']>;
export type StockParams = EndpointQuery<typeof storeRoutes.stock>;

export function useStoreList(params: StoreListParams) {
  return useQuery({ queryKey: storeKeys.list(params), queryFn: () => api(storeRoutes.list, { query: params }), placeholderData: keepPreviousData });
}

export function useStock(params: StockParams | undefined) {
  return useQuery({
    queryKey: storeKeys.stock(params ?? {}),
    queryFn: () => api(storeRoutes.stock, { query: params! }),
    enabled: !!params,
    placeholderData: keepPreviousData,
  });
}

export const useInvalidateStores = () => useInvalidate();

function useInvalidate() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: storeKeys.all });
    void qc.invalidateQueries({ queryKey: rentalKeys.all });
  };
}

const done = (key: string, count?: number) => feedbackMessage().success(i18n.t(key, { count }));

export function useSaveStore() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: StoreFields }) =>
      id ? api(storeRoutes.edit, { body: { ...fields, id }, silent: true }) : api(storeRoutes.add, { body: fields, silent: true }),
    onSuccess: (_d, v) => {
      done(v.id ? 'crud:updated' : 'crud:created');
      invalidate();
    },
  });
}

export function useDeleteStores() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (ids: number[]) => api(storeRoutes.remove, { query: { id: ids.join(',') } }),
    onSuccess: () => {
      done('crud:deleted');
      invalidate();
    },
  });
}

/** Stock packs at a store, take them out, or clear their recorded fault. */
export function useStockChange() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (c: { op: 'stock'; storeId: number; deviceIds: number[] } | { op: 'unstock' | 'clear'; deviceIds: number[] }) =>
      c.op === 'stock'
        ? api(storeRoutes.stockDevices, { body: { storeId: c.storeId, deviceIds: c.deviceIds } })
        : api(c.op === 'unstock' ? storeRoutes.unstockDevices : storeRoutes.clearFault, { body: { deviceIds: c.deviceIds } }),
    onSuccess: (d, c) => {
      done(`stores:done.${c.op}`, d.count);
      invalidate();
    },
  });
}
