import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, ProjectDto } from '@iot/contract';
import { http } from '../../lib/http';

export type ProjectSort = 'createdAt' | 'name';

export interface ProjectListParams {
  page: number;
  limit: number;
  name?: string;
  sort: ProjectSort;
  order: 'asc' | 'desc';
}

export interface ProjectInput {
  name: string;
  remarks: string;
  address: string;
  lng: number | null;
  lat: number | null;
  weather: boolean;
  map: boolean;
  ownerId?: number;
}

export interface RoadSection {
  id: number;
  projectId: number;
  name: string;
  description: string;
  points: [number, number][];
  sort: number;
  createdAt: string;
}

export interface RoadSectionInput {
  name: string;
  description: string;
  points: [number, number][];
  sort: number;
}

export interface ProjectUser {
  id: number;
  username: string;
  corporateName: string;
}

export interface UserOption {
  id: number;
  name: string;
}

const KEY = ['projects'] as const;

export function useProjectList(params: ProjectListParams) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => http.get<Page<ProjectDto>>('/project/list', { params: { ...params, name: params.name?.trim() } }),
    placeholderData: keepPreviousData,
  });
}

export function useProject(id: number | undefined) {
  return useQuery({
    queryKey: [...KEY, 'item', id],
    queryFn: () => http.get<ProjectDto>('/project/item', { params: { id } }),
    enabled: !!id,
  });
}

function useInvalidateProjects() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: KEY });
    // Deleting a project moves or detaches its devices.
    void qc.invalidateQueries({ queryKey: ['devices'] });
  };
}

/** Form submits report their own errors (next to the field when the server names one). */
export function useSaveProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ProjectInput }) =>
      id
        ? http.post<null>('/project/editproject', { ...input, id }, { silent: true })
        : http.post<{ id: number }>('/project/addproject', input, { silent: true }),
    onSuccess: invalidate,
  });
}

/** Silent: a 409 (the project still holds devices) opens the "where do they go" dialog. */
export function useDeleteProject() {
  const invalidate = useInvalidateProjects();
  return useMutation({
    mutationFn: ({ id, moveTo }: { id: number; moveTo?: number }) =>
      http.delete<null>('/project/deleteproject', { params: { id, moveTo }, silent: true }),
    onSuccess: invalidate,
  });
}

export function useRoadSections(projectId: number, page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, 'roads', projectId, page, limit],
    queryFn: () => http.get<Page<RoadSection>>('/project/roadsectionlist', { params: { projectId, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: RoadSectionInput }) =>
      id
        ? http.post<null>('/project/editroadsection', { ...input, id }, { silent: true })
        : http.post<{ id: number }>('/project/addroadsection', { ...input, projectId }, { silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...KEY, 'roads', projectId] }),
  });
}

export function useDeleteRoadSection(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<null>('/project/deleteroadsection', { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...KEY, 'roads', projectId] }),
  });
}

export function useProjectUsers(id: number | undefined) {
  return useQuery({
    queryKey: [...KEY, 'users', id],
    queryFn: () => http.get<ProjectUser[]>('/project/userprojectlist', { params: { id } }),
    enabled: !!id,
  });
}

export function useSetProjectUsers(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userIds: number[]) => http.post<null>('/project/setuserproject', { id, userIds }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...KEY, 'users', id] }),
  });
}

/**
 * Users of the caller's subtree by name (GET /user/options). Only for callers holding one of
 * USER_PICKER_PERMISSIONS (`enabled`): others would get 403, and their pickers offer only the
 * users they already know.
 */
export function useUserOptions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'options', q.trim()],
    queryFn: () => http.get<UserOption[]>('/user/options', { params: { q: q.trim(), limit: 30 }, silent: true }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
