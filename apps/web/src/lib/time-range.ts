import dayjs, { type Dayjs } from 'dayjs';

export type RangeValue = [Dayjs | null, Dayjs | null] | null | undefined;

/** Filter values with a RangePicker `range` → the API's ISO `from`/`to` (whole days, local time). */
export function withTimeRange<F extends { range?: RangeValue }>(values: F): Omit<F, 'range'> & { from?: string; to?: string } {
  const { range, ...rest } = values;
  const [start, end] = range ?? [null, null];
  return {
    ...rest,
    ...(start ? { from: start.startOf('day').toISOString() } : {}),
    ...(end ? { to: end.endOf('day').toISOString() } : {}),
  };
}

/** The API's `from`/`to` back into a RangePicker value (a list reopened from its address). */
export function rangeOf(filters: { from?: string; to?: string }): RangeValue {
  const start = filters.from ? dayjs(filters.from) : null;
  const end = filters.to ? dayjs(filters.to) : null;
  return start?.isValid() || end?.isValid() ? [start?.isValid() ? start : null, end?.isValid() ? end : null] : undefined;
}

/** A list's applied filters as its filter bar's fields: `from`/`to` as the picker's `range`. */
export function rangeValues<F extends { from?: string; to?: string }>(filters: F): Omit<F, 'from' | 'to'> & { range?: RangeValue } {
  const { from, to, ...rest } = filters;
  const range = rangeOf({ from, to });
  return range ? { ...rest, range } : rest;
}
