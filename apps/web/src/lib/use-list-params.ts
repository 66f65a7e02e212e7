import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

export type SortDirection = 'asc' | 'desc';

/** How a filter is written in the address: its text as is, or a number. */
export type FilterKind = 'string' | 'number';

/** The filters a list keeps in its address, by name (not a keyset cursor such as `after`). */
export type FilterSpec<F> = { readonly [K in keyof F]?: FilterKind };

/** What a list shows: page, page size, sort column and direction, and the filter values. */
export interface ListState<F, S extends string = string> {
  page: number;
  limit: number;
  sort?: S;
  order?: SortDirection;
  filters: F;
}

export interface ListDefaults<F, S extends string> {
  limit: number;
  sort?: S;
  order?: SortDirection;
  filters: F;
}

const positiveInt = (raw: string | null): number | undefined => {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n > 0 ? n : undefined;
};

/** Reads a list's state from the address; what is missing or malformed takes its default. */
export function readListState<F, S extends string>(
  search: URLSearchParams,
  spec: FilterSpec<F>,
  defaults: ListDefaults<F, S>,
  limits: readonly number[],
): ListState<F, S> {
  const filters: Record<string, unknown> = { ...(defaults.filters as Record<string, unknown>) };
  for (const [name, kind] of Object.entries(spec) as [string, FilterKind | undefined][]) {
    if (!kind) continue;
    const raw = search.get(name);
    if (raw === null || raw === '') continue;
    if (kind === 'number') {
      // A hand-edited link with a non-number keeps the default rather than asking the server a
      // question it refuses.
      if (/^-?\d{1,12}$/.test(raw)) filters[name] = Number(raw);
    } else {
      filters[name] = raw;
    }
  }
  const limit = positiveInt(search.get('limit'));
  const order = search.get('order');
  return {
    page: positiveInt(search.get('page')) ?? 1,
    limit: limit !== undefined && limits.includes(limit) ? limit : defaults.limit,
    sort: (search.get('sort') as S | null) ?? defaults.sort,
    order: order === 'asc' || order === 'desc' ? order : defaults.order,
    filters: filters as F,
  };
}

/**
 * Writes a list's state into the address, leaving out what equals its default (a fresh list has a
 * clean address) and keeping every parameter the list does not own (`?alarmId=`, `?id=`).
 */
export function writeListState<F, S extends string>(
  current: URLSearchParams,
  state: ListState<F, S>,
  spec: FilterSpec<F>,
  defaults: ListDefaults<F, S>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (name: string, value: unknown, fallback?: unknown) => {
    if (value === undefined || value === null || value === '' || value === fallback) next.delete(name);
    else next.set(name, String(value));
  };
  set('page', state.page, 1);
  set('limit', state.limit, defaults.limit);
  // An explicit sort equal to the default is left out too: both mean the same list.
  const defaultSort = state.sort === defaults.sort && state.order === defaults.order;
  set('sort', defaultSort ? undefined : state.sort);
  set('order', defaultSort ? undefined : state.order);
  const filters = state.filters as unknown as Record<string, unknown>;
  for (const name of Object.keys(spec)) set(name, filters[name]);
  return next;
}

/**
 * A list's page, size, sort and filters kept in the address (`?q=0042&online=true&page=2`), so
 * that Back from a details page, the list's tab in the tags bar and a shared link all open the
 * same list. Changes replace the current history entry: Back leaves the list instead of stepping
 * through every filter typed.
 */
export function useListParams<F extends object, S extends string = string>(
  spec: FilterSpec<F>,
  defaults: ListDefaults<F, S>,
  limits: readonly number[],
) {
  const [search, setSearch] = useSearchParams();
  // The address as last written. Navigations render in a transition, so a second change (a
  // double click on a sort arrow, a filter picked right after a search) can come before the
  // first is rendered: it builds on what was written, not on the address of the last render.
  const latest = useRef(search);
  const rendered = useRef(search);
  if (rendered.current !== search) {
    rendered.current = search;
    latest.current = search;
  }
  const key = search.toString();
  // The spec and defaults are literals of the calling page: their text is a stable identity.
  const specKey = JSON.stringify(spec);
  const defaultsKey = JSON.stringify(defaults);
  const state = useMemo(
    () => readListState(new URLSearchParams(key), spec, defaults, limits),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- spec and defaults by value
    [key, specKey, defaultsKey, limits],
  );
  const setState = useCallback(
    (update: (s: ListState<F, S>) => ListState<F, S>) => {
      const current = latest.current;
      const next = writeListState(current, update(readListState(current, spec, defaults, limits)), spec, defaults);
      latest.current = next;
      setSearch(next, { replace: true });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- spec and defaults by value
    [setSearch, specKey, defaultsKey, limits],
  );
  return [state, setState] as const;
}
