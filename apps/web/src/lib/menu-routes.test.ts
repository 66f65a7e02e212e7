import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@iot/contract';
import { buildMenuRoutes, buildSidebar, joinPath, menuTitle } from './menu-routes';

let id = 0;
function node(partial: Partial<MenuNode> & Pick<MenuNode, 'menuUrl' | 'name'>): MenuNode {
  id += 1;
  return {
    id,
    parentId: 0,
    nameEn: `${partial.name} (en)`,
    nameEs: '',
    nameJa: '',
    jumpType: 1,
    menuType: 0,
    sort: id,
    icon: '',
    identification: partial.name,
    isShow: 1,
    children: [],
    ...partial,
  };
}

const tree: MenuNode[] = [
  node({
    name: '设备管理',
    menuUrl: '/device',
    menuType: 1,
    children: [
      node({ name: '设备类型', menuUrl: 'type' }),
      node({ name: '新增类型', menuUrl: 'addtype', isShow: 0 }),
    ],
  }),
  node({ name: '文档', menuUrl: 'https://example.com/docs', jumpType: 2 }),
  node({ name: '分组', menuUrl: '/group', menuType: 1 }),
];

describe('menu routes', () => {
  it('joins parent and child paths', () => {
    expect(joinPath('/device', 'type')).toBe('/device/type');
    expect(joinPath('device/', '/type')).toBe('/device/type');
    expect(joinPath('', '/sys')).toBe('/sys');
  });

  it('picks the title column by language with zh on `name`', () => {
    const n = node({ name: '设备', menuUrl: 'x', nameEn: 'Devices', nameEs: 'Dispositivos' });
    expect(menuTitle(n, 'zh')).toBe('设备');
    expect(menuTitle(n, 'en')).toBe('Devices');
    expect(menuTitle(n, 'es')).toBe('Dispositivos');
    expect(menuTitle(n, 'ja')).toBe('Devices');
  });

  it('makes a parent redirect to its first child and children load pages', () => {
    const routes = buildMenuRoutes(tree, 'zh');
    const byPath = new Map(routes.map((r) => [r.path, r]));
    expect(byPath.get('/device')).toMatchObject({ kind: 'redirect', redirect: '/device/type' });
    expect(byPath.get('/device/type')).toMatchObject({ kind: 'page', hidden: false, parents: ['/device'] });
    expect(byPath.get('/device/addtype')).toMatchObject({ kind: 'page', hidden: true });
    expect(byPath.get('/group')).toMatchObject({ kind: 'empty' });
    expect(routes.some((r) => r.path.includes('example.com'))).toBe(false);
  });

  it('leaves hidden items out of the sidebar and keeps external links', () => {
    const sidebar = buildSidebar(tree, 'en');
    expect(sidebar.map((i) => i.key)).toEqual(['/device', 'https://example.com/docs', '/group']);
    expect(sidebar[0]?.children?.map((i) => i.key)).toEqual(['/device/type']);
    expect(sidebar[1]).toMatchObject({ external: true, title: '文档 (en)' });
  });

  it('never turns a non-http(s) external menu into a link', () => {
    const hostile = [
      node({ name: 'x1', menuUrl: 'javascript:alert(1)', jumpType: 2 }),
      node({ name: 'x2', menuUrl: 'data:text/html,hi', jumpType: 2 }),
      node({ name: 'ok', menuUrl: 'https://example.com/', jumpType: 2 }),
    ];
    expect(buildSidebar(hostile, 'en').map((i) => i.key)).toEqual(['https://example.com/']);
  });
});
