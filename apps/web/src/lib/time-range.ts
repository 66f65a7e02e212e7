import type { Dayjs } from 'dayjs';

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
