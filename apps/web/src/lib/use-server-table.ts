import { useCallback, useMemo, useState } from 'react';
import type { TablePaginationConfig, TableProps } from 'antd';
import type { SorterResult, SortOrder as AntSortOrder } from 'antd/es/table/interface';
import i18n from './i18n';

export type SortDirection = 'asc' | 'desc';

export interface ServerTableOptions<F, S extends string = string> {
  /** The server's default sort column and direction (restored when the user clears sorting). */
  sort?: S;
  order?: SortDirection;
  limit?: number;
  filters?: F;
}

interface State<F, S extends string> {
  page: number;
  limit: number;
  sort?: S;
  order?: SortDirection;
  filters: F;
}

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
  const { sort: defaultSort, order: defaultOrder, limit: defaultLimit = 20 } = options;
  const [state, setState] = useState<State<F, S>>(() => ({
    page: 1,
    limit: defaultLimit,
    sort: defaultSort,
    order: defaultOrder,
    filters: options.filters ?? ({} as F),
  }));

  const params = useMemo<TableParams<F, S>>(
    () => ({
      page: state.page,
      limit: state.limit,
      ...(state.sort ? { sort: state.sort } : {}),
      ...(state.order ? { order: state.order } : {}),
      ...state.filters,
    }),
    [state],
  );

  /** New filter values: back to the first page. */
  const search = useCallback((filters: F) => setState((s) => ({ ...s, page: 1, filters })), []);

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
    [defaultSort, defaultOrder],
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
    <T>(data: { total: number; exact?: boolean; items: T[] } | undefined, loading: boolean): Partial<TableProps<T>> => ({
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

  return { params, filters: state.filters, search, sortable, sortOrderOf, tableProps };
}
