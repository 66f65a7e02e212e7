import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointData, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { deviceKeys, projectKeys } from '../../lib/query-keys';

export type ProjectListParams = EndpointQuery<typeof projectRoutes.list>;
export type ProjectSort = NonNullable<ProjectListParams['sort']>;
export type ProjectInput = EndpointBody<typeof projectRoutes.add>;
export type RoadSection = EndpointData<typeof projectRoutes.roadSections>['items'][number];
export type RoadSectionInput = Omit<EndpointBody<typeof projectRoutes.addRoadSection>, 'projectId'>;
export type ProjectUser = EndpointData<typeof projectRoutes.users>[number];

export function useProjectList(params: ProjectListParams) {
  return useQuery({
    queryKey: projectKeys.list(params),
    queryFn: () => api(projectRoutes.list, { query: { ...params, name: params.name?.trim() } }),
    placeholderData: keepPreviousData,
  });
}

export function useProject(id: number | undefined) {
  return useQuery({
    queryKey: projectKeys.item(id),
    queryFn: () => api(projectRoutes.item, { query: { id: id! } }),
    enabled: !!id,
  });
}

/** The forecast at a project's position (only asked when its weather switch is on). */
export function useProjectWeather(id: number, enabled: boolean) {
  return useQuery({
    queryKey: projectKeys.weather(id),
    queryFn: () => api(projectRoutes.weather, { query: { id } }),
    enabled,
    staleTime: 10 * 60_000,
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
        ? api(projectRoutes.edit, { body: { ...input, id }, silent: true })
        : api(projectRoutes.add, { body: input, silent: true }),
    onSuccess: invalidate,
  });
}

/** Silent: a 409 (the project still holds devices) opens the "where do they go" dialog. */
export function useDeleteProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, moveTo }: { id: number; moveTo?: number }) =>
      api(projectRoutes.remove, { query: { id, moveTo }, silent: true }),
    onSuccess: invalidate,
  });
}

export function useRoadSections(projectId: number, page: number, limit: number) {
  return useQuery({
    queryKey: projectKeys.roads(projectId, page, limit),
    queryFn: () => api(projectRoutes.roadSections, { query: { projectId, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: RoadSectionInput }) =>
      id
        ? api(projectRoutes.editRoadSection, { body: { ...input, id }, silent: true })
        : api(projectRoutes.addRoadSection, { body: { ...input, projectId }, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.roadsOf(projectId) }),
  });
}

export function useDeleteRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(projectRoutes.removeRoadSection, { query: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.roadsOf(projectId) }),
  });
}

export function useProjectUsers(id: number | undefined) {
  return useQuery({
    queryKey: projectKeys.users(id),
    queryFn: () => api(projectRoutes.users, { query: { id: id! } }),
    enabled: !!id,
  });
}

export function useSetProjectUsers(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userIds: number[]) => api(projectRoutes.setUsers, { body: { id, userIds } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.users(id) }),
  });
}
