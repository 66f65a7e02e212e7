import { describe, expect, it } from 'vitest';
import { readListState, writeListState, type FilterSpec, type ListDefaults, type ListState } from './use-list-params';

type Filters = { q?: string; projectId?: number; online?: string };
const spec: FilterSpec<Filters> = { q: 'string', projectId: 'number', online: 'string' };
const defaults: ListDefaults<Filters, string> = { limit: 20, sort: 'createdAt', order: 'desc', filters: {} };
const LIMITS = [10, 20, 50, 100];
const read = (query: string) => readListState(new URLSearchParams(query), spec, defaults, LIMITS);

describe('a list state in the address', () => {
  it('reads the search, a numeric filter, sort and page as written', () => {
    expect(read('q=0042&projectId=7&online=true&sort=sn&order=asc&page=2&limit=50')).toEqual({
      page: 2,
      limit: 50,
      sort: 'sn',
      order: 'asc',
      filters: { q: '0042', projectId: 7, online: 'true' },
    });
  });

  it('takes the defaults for what is missing or malformed in a hand-edited link', () => {
    expect(read('projectId=abc&page=-3&limit=7&order=sideways')).toEqual({
      page: 1,
      limit: 20,
      sort: 'createdAt',
      order: 'desc',
      filters: {},
    });
  });

  it('writes only what differs from the defaults and keeps parameters it does not own', () => {
    const written = writeListState(
      new URLSearchParams('alarmId=9&q=old'),
      { page: 1, limit: 20, sort: 'createdAt', order: 'desc', filters: { projectId: 3 } },
      spec,
      defaults,
    );
    expect(written.toString()).toBe('alarmId=9&projectId=3');
  });

  it('reads back what it wrote', () => {
    const state: ListState<Filters> = { page: 3, limit: 100, sort: 'sn', order: 'asc', filters: { q: 'rack 1', online: 'false' } };
    expect(read(writeListState(new URLSearchParams(), state, spec, defaults).toString())).toEqual(state);
  });
});
