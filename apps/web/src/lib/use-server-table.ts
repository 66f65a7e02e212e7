import { useCallback, useMemo, useState } from 'react';
import type { TablePaginationConfig, TableProps } from 'antd';
import type { SorterResult, SortOrder as AntSortOrder } from 'antd/es/table/interface';
import i18n from './i18n';
import { useListParams, type FilterSpec, type ListState, type SortDirection } from './use-list-params';

export type { SortDirection };

export interface ServerTableOptions<F, S extends string = string> {
  /** The server's default sort column and direction (restored when the user clears sorting). */
  sort?: S;
  order?: SortDirection;
  limit?: number;
  filters?: F;
  /**
   * A page's own list: its filters (by name and kind), page and sort live in the address
   * (`useListParams`), so Back, the tags bar and a shared link reopen the same list. Lists inside
   * another page (a details page's tab, a drawer) leave it out and keep their state in memory.
   */
  url?: FilterSpec<F>;
  /** Filters the page fixes whatever the address says (one device's alarms). */
  fixed?: Partial<F>;
}

type State<F, S extends string> = ListState<F, S>;

/** The query of a server-paged list: paging, sorting and the filter values (an endpoint's query). */
export type TableParams<F, S extends string = string> = { page: number; limit: number; sort?: S; order?: SortDirection } & F;

export const PAGE_SIZES = [10, 20, 50, 100];

/**
 * State of a server-paged antd Table: page, page size, sort column/direction and the filter
 * values, turned into the query parameters every list route takes (`page`, `limit`, `sort`,
 * `order`, filters). Sortable columns spread `table.sortable(key)` (or set `key` to the server's
 * sort name and `sortOrder: table.sortOrderOf(key)`).
 */
export function useServerTable<F extends object = Record<string, never>, S extends string = string>(
  options: ServerTableOptions<F, S> = {},
) {
  const { sort: defaultSort, order: defaultOrder, limit: defaultLimit = 20, url, fixed } = options;
  const defaults = { limit: defaultLimit, sort: defaultSort, order: defaultOrder, filters: options.filters ?? ({} as F) };
  const [memoryState, setMemoryState] = useState<State<F, S>>(() => ({ page: 1, ...defaults }));
  // Both hooks run on every render (hooks keep their order); `url` picks the one that counts.
  const [urlState, setUrlState] = useListParams<F, S>(url ?? ({} as FilterSpec<F>), defaults, PAGE_SIZES);
  const state = url ? urlState : memoryState;
  const setState = url ? setUrlState : setMemoryState;
  const fixedKey = JSON.stringify(fixed ?? {});

  const params = useMemo<TableParams<F, S>>(
    () => ({
      page: state.page,
      limit: state.limit,
      ...(state.sort ? { sort: state.sort } : {}),
      ...(state.order ? { order: state.order } : {}),
      ...state.filters,
      ...(JSON.parse(fixedKey) as Partial<F>),
    }),
    [state, fixedKey],
  );

  /** New filter values: back to the first page. */
  const search = useCallback((filters: F) => setState((s) => ({ ...s, page: 1, filters })), [setState]);
  /** Some filters changed (one select of a bar that applies as it changes): back to page 1. */
  const patch = useCallback(
    (changes: Partial<F>) => setState((s) => ({ ...s, page: 1, filters: { ...s.filters, ...changes } })),
    [setState],
  );

  const onChange = useCallback(
    <T>(pagination: TablePaginationConfig, _filters: unknown, sorter: SorterResult<T> | SorterResult<T>[]) => {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = one?.order ? String(one.columnKey ?? one.field ?? '') : '';
      setState((s) => {
        const limit = pagination.pageSize ?? s.limit;
        // Sortable columns' keys are the server's sort names (S).
        const sort = (key as S) || defaultSort;
        const order: SortDirection | undefined = key
          ? one?.order === 'ascend'
            ? 'asc'
            : 'desc'
          : defaultOrder;
        const sortChanged = sort !== s.sort || order !== s.order;
        return {
          ...s,
          limit,
          sort,
          order,
          page: limit !== s.limit || sortChanged ? 1 : (pagination.current ?? s.page),
        };
      });
    },
    [defaultSort, defaultOrder, setState],
  );

  const sortOrderOf = useCallback(
    (key: string): AntSortOrder =>
      state.sort === key && state.order ? (state.order === 'asc' ? 'ascend' : 'descend') : null,
    [state.sort, state.order],
  );

  /**
   * Props of a sortable column: `key` (the server's sort name), `sorter` and its current order.
   * `keepSorted`: clicking cycles ascending/descending only, never back to unsorted.
   */
  const sortable = useCallback(
    (key: string, keepSorted = false) => ({
      key,
      sorter: true,
      sortOrder: sortOrderOf(key),
      ...(keepSorted ? { sortDirections: ['ascend', 'descend', 'ascend'] as AntSortOrder[] } : {}),
    }),
    [sortOrderOf],
  );

  /** Props for the Table: rows (keyed by `id`), size, loading, pagination and the change handler. */
  const tableProps = useCallback(
    <T>(data: { total: number; exact?: boolean; items: T[] } | undefined, loading: boolean): Partial<Omit<TableProps<T>, 'columns' | 'scroll'>> => ({
      rowKey: 'id',
      size: 'middle',
      dataSource: data?.items ?? [],
      loading,
      onChange: onChange as TableProps<T>['onChange'],
      pagination: {
        current: state.page,
        pageSize: state.limit,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        // A total counted up to the server's cap reads "more than 10,000".
        showTotal: (total: number) =>
          data?.exact === false ? i18n.t('common:totalAtLeast', { total }) : i18n.t('common:total', { total }),
      },
    }),
    [onChange, state.page, state.limit],
  );

  return { params, filters: state.filters, search, patch, sortable, sortOrderOf, tableProps };
}
