import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceTypeRoutes, firmwareRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointData, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { deviceTypeKeys, firmwareKeys } from '../../lib/query-keys';
import { uploadFile } from '../../lib/transfer';

export type VersionListParams = EndpointQuery<typeof firmwareRoutes.list>;
export type VersionSort = NonNullable<VersionListParams['sort']>;
export type VersionFilters = Pick<VersionListParams, 'q' | 'manufacturer' | 'module' | 'typeId'>;
export type Version = EndpointData<typeof firmwareRoutes.list>['items'][number];
export type VersionInput = EndpointBody<typeof firmwareRoutes.add>;
export type VersionEdit = EndpointBody<typeof firmwareRoutes.edit>;
export type Uploaded = EndpointData<typeof firmwareRoutes.upload>;

/** GET /upgrade/list: server-paged, sorted and filtered. */
export function useVersionList(params: VersionListParams) {
  return useQuery({
    queryKey: firmwareKeys.list(params),
    queryFn: () => api(firmwareRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** The device types the caller may name (GET /user/devicetypelist). */
export function useTypeOptions() {
  return useQuery({
    queryKey: deviceTypeKeys.visible,
    queryFn: () => api(deviceTypeRoutes.visible),
    staleTime: 60_000,
  });
}

/** POST /upgrade/upload with progress; the answer's `fileKey` goes into add or edit. */
export function uploadImage(file: File, onProgress: (percent: number) => void) {
  return uploadFile(firmwareRoutes.upload, file, onProgress);
}

/** Form submits report their own errors (beside the field when the server names one). */
export function useSaveVersion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: VersionInput | VersionEdit) =>
      'id' in body && body.id ? api(firmwareRoutes.edit, { body: body as VersionEdit, silent: true }) : api(firmwareRoutes.add, { body: body as VersionInput, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: firmwareKeys.all }),
  });
}

/** Silent: the page says why a delete was refused (a running campaign uses the version). */
export function useDeleteVersion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(firmwareRoutes.remove, { query: { id: String(id) }, silent: true }),
    onSettled: () => qc.invalidateQueries({ queryKey: firmwareKeys.all }),
  });
}
