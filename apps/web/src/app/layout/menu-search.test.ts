import { describe, expect, it } from 'vitest';
import { pinyin } from 'pinyin-pro';
import type { AppRoute, RouteTable } from '../route-table';
import { matchesQuery, searchEntries, type PinyinFn } from './menu-search';

const route = (path: string, title: string, extra: Partial<AppRoute> = {}): AppRoute => ({
  path,
  title,
  kind: 'page',
  hidden: false,
  icon: '',
  identification: '',
  activeMenu: path,
  parents: [],
  ...extra,
});

const routes = [
  route('/dashboard', '首页'),
  route('/device', '设备管理', { kind: 'redirect', redirect: '/device/type' }),
  route('/device/type', '设备类型', { parents: ['/device'] }),
  route('/device/addtype', '新增类型', { parents: ['/device'], hidden: true }),
  route('/sys/logs', '操作日志'),
];
const table: RouteTable = {
  routes,
  byPath: new Map(routes.map((r) => [r.path, r])),
  sidebar: [],
  affix: ['/dashboard'],
};
const toPinyin: PinyinFn = (text, initials) =>
  pinyin(text, { toneType: 'none', type: 'array', ...(initials ? { pattern: 'first' } : {}) }).join('');

describe('menu search', () => {
  it('lists visible pages with their parents, not redirects or hidden pages', () => {
    const labels = searchEntries(table).map((e) => e.label);
    expect(labels).toEqual(['首页', '设备管理 > 设备类型', '操作日志']);
  });

  it('finds Chinese titles by pinyin only when pinyin is on', () => {
    const find = (q: string, withPinyin: boolean) =>
      searchEntries(table, withPinyin ? toPinyin : undefined)
        .filter((e) => matchesQuery(e, q))
        .map((e) => e.path);
    expect(find('shebei', true)).toEqual(['/device/type']);
    expect(find('she bei', true)).toEqual(['/device/type']);
    expect(find('czrz', true)).toEqual(['/sys/logs']);
    expect(find('shebei', false)).toEqual([]);
    expect(find('类型', false)).toEqual(['/device/type']);
  });
});
