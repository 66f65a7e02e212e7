import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectApi, type EndpointBody, type EndpointData, type EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { deviceKeys, projectKeys } from '../../lib/query-keys';

export type ProjectListParams = EndpointQuery<typeof projectApi.list>;
export type ProjectSort = NonNullable<ProjectListParams['sort']>;
export type ProjectInput = EndpointBody<typeof projectApi.add>;
export type RoadSection = EndpointData<typeof projectApi.roadSections>['items'][number];
export type RoadSectionInput = Omit<EndpointBody<typeof projectApi.addRoadSection>, 'projectId'>;
export type ProjectUser = EndpointData<typeof projectApi.users>[number];

export function useProjectList(params: ProjectListParams) {
  return useQuery({
    queryKey: projectKeys.list(params),
    queryFn: () => api(projectApi.list, { query: { ...params, name: params.name?.trim() } }),
    placeholderData: keepPreviousData,
  });
}

export function useProject(id: number | undefined) {
  return useQuery({
    queryKey: projectKeys.item(id),
    queryFn: () => api(projectApi.item, { query: { id: id! } }),
    enabled: !!id,
  });
}

function useInvalidateProjects() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: projectKeys.all });
    // Deleting a project moves or detaches its devices.
    void qc.invalidateQueries({ queryKey: deviceKeys.all });
  };
}

/** Form submits report their own errors (next to the field when the server names one). */
export function useSaveProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ProjectInput }) =>
      id
        ? api(projectApi.edit, { body: { ...input, id }, silent: true })
        : api(projectApi.add, { body: input, silent: true }),
    onSuccess: invalidate,
  });
}

/** Silent: a 409 (the project still holds devices) opens the "where do they go" dialog. */
export function useDeleteProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, moveTo }: { id: number; moveTo?: number }) =>
      api(projectApi.remove, { query: { id, moveTo }, silent: true }),
    onSuccess: invalidate,
  });
}

export function useRoadSections(projectId: number, page: number, limit: number) {
  return useQuery({
    queryKey: projectKeys.roads(projectId, page, limit),
    queryFn: () => api(projectApi.roadSections, { query: { projectId, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: RoadSectionInput }) =>
      id
        ? api(projectApi.editRoadSection, { body: { ...input, id }, silent: true })
        : api(projectApi.addRoadSection, { body: { ...input, projectId }, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.roadsOf(projectId) }),
  });
}

export function useDeleteRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(projectApi.removeRoadSection, { query: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.roadsOf(projectId) }),
  });
}

export function useProjectUsers(id: number | undefined) {
  return useQuery({
    queryKey: projectKeys.users(id),
    queryFn: () => api(projectApi.users, { query: { id: id! } }),
    enabled: !!id,
  });
}

export function useSetProjectUsers(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userIds: number[]) => api(projectApi.setUsers, { body: { id, userIds } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.users(id) }),
  });
}
