import { useEffect, useMemo, useState } from 'react';
import { ConfigProvider, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { currentLanguage } from '../../lib/i18n';
import { siteText, useSiteConfig } from '../../lib/site';
import type { SidebarItem } from '../../lib/menu-routes';
import type { RouteTable } from '../route-table';
import { useSettings } from '../settings';
import { MenuIcon } from '../../components/MenuIcon';

export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 54;
const SIDEBAR_BG = '#304156';

type MenuItem = Required<MenuProps>['items'][number];

/**
 * Sidebar entries: exactly the shown menus of the user's tree, as /sys/menu lists them. Pages no
 * feature implements yet are hidden there by the seed (they show the "not available yet" notice
 * when an administrator shows them), not filtered here behind the administrator's back.
 */
function toMenuItems(items: SidebarItem[], nested = false): MenuItem[] {
  return items.map((item) => {
    const icon = nested && !item.icon ? undefined : <MenuIcon name={item.icon} />;
    const testId = `sidebar-item-${item.key}`;
    // A long title ends with an ellipsis before the submenu arrow (styles.css).
    const text = (
      <span className="sidebar-item-text" title={item.title}>
        {item.title}
      </span>
    );
    const label = item.external ? (
      <a href={item.key} target="_blank" rel="noopener noreferrer" className="sidebar-item" data-testid={testId}>
        {text}
      </a>
    ) : (
      <span className="sidebar-item" data-testid={testId}>
        {text}
      </span>
    );
    return item.children
      ? { key: item.key, icon, label, children: toMenuItems(item.children, true) }
      : { key: item.key, icon, label };
  });
}

function flatten(items: SidebarItem[]): SidebarItem[] {
  return items.flatMap((i) => [i, ...flatten(i.children ?? [])]);
}

interface Props {
  table: RouteTable;
  collapsed: boolean;
}

/** §2 sidebar: logo and site title on top (setting), then the visible menu tree. */
export function Sidebar({ table, collapsed }: Props) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { sidebarLogo } = useSettings();
  const { data: config } = useSiteConfig();
  const current = table.byPath.get(pathname);
  const ancestors = useMemo(() => current?.parents ?? [], [current]);
  const [openKeys, setOpenKeys] = useState<string[]>(ancestors);

  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...ancestors])]);
  }, [ancestors]);

  const items = useMemo(() => toMenuItems(table.sidebar), [table.sidebar]);
  const externals = useMemo(
    () => new Set(flatten(table.sidebar).filter((i) => i.external).map((i) => i.key)),
    [table.sidebar],
  );

  return (
    <div data-testid="sidebar" style={{ height: '100%', background: SIDEBAR_BG, overflowY: 'auto' }}>
      {sidebarLogo && (
        <a
          href="/"
          onClick={(e) => {
            e.preventDefault();
            void navigate('/');
          }}
          data-testid="sidebar-logo"
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: collapsed ? 'center' : 'flex-start',
            gap: 8,
            height: 50,
            padding: collapsed ? 0 : '0 10px 0 12px',
            background: '#2b2f3a',
            overflow: 'hidden',
          }}
        >
          <img src={config?.logo || '/logo.svg'} alt="" style={{ width: 26, height: 26, flex: 'none' }} />
          {!collapsed && (
            <span className="sidebar-title" title={siteText(config, 'title', currentLanguage())}>
              {siteText(config, 'title', currentLanguage())}
            </span>
          )}
        </a>
      )}
      <nav aria-label={t('navbar:mainMenu')}>
        <ConfigProvider
          theme={{
            components: {
              Menu: {
                darkItemBg: SIDEBAR_BG,
                darkSubMenuItemBg: '#1f2d3d',
                darkPopupBg: SIDEBAR_BG,
                darkItemColor: '#bfcbd9',
              },
            },
          }}
        >
          <Menu
            theme="dark"
            mode="inline"
            inlineCollapsed={collapsed}
            // 16 px per level (antd's 24 leaves nested Spanish titles too little room in 210 px).
            inlineIndent={16}
            items={items}
            selectedKeys={[current?.activeMenu ?? pathname]}
            {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
            onClick={({ key }) => {
              if (!externals.has(key)) void navigate(key);
            }}
            className="sidebar-menu"
            style={{ borderInlineEnd: 'none' }}
          />
        </ConfigProvider>
      </nav>
    </div>
  );
}
