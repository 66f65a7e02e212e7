import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Layout as AntLayout, theme } from 'antd';
import { PageSpin } from '../../components/PageSpin';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { getSidebarOpened, setSidebarOpened } from '../../lib/cookies';
import { currentLanguage } from '../../lib/i18n';
import { siteText, useSiteConfig } from '../../lib/site';
import type { RouteTable } from '../route-table';
import { useSettings } from '../settings';
import { pruneTags, visitTag } from '../../lib/tags';
import { usePageTitles } from '../../lib/page-title';
import { Navbar } from './Navbar';
import { Sidebar, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './Sidebar';
import { TagsView } from './TagsView';
import { useIsMobile } from '../../lib/use-mobile';
import { AntdConfig } from '../AntdConfig';

// The settings panel (colour picker, sliders) is code the login page and most visits never need.
const MobileSidebar = lazy(() => import('./MobileSidebar').then((m) => ({ default: m.MobileSidebar })));
const SettingsDrawer = lazy(() => import('./SettingsDrawer').then((m) => ({ default: m.SettingsDrawer })));

/** The signed-in frame: sidebar (drawer on mobile), navbar, tags view and the page, in antd's theme. */
export function Layout({ table }: { table: RouteTable }) {
  return (
    <AntdConfig>
      <Frame table={table} />
    </AntdConfig>
  );
}

function Frame({ table }: { table: RouteTable }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const location = useLocation();
  const isMobile = useIsMobile();
  const settings = useSettings();
  const { data: config } = useSiteConfig();
  const [opened, setOpened] = useState(getSidebarOpened);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const route = table.byPath.get(location.pathname);
  const pageTitles = usePageTitles();
  const heading = useRef<HTMLHeadingElement>(null);
  const shownPath = useRef(location.pathname);

  // After a navigation the focus goes to the new page's heading, so that a screen reader reads
  // where the user arrived and the next Tab starts in the page (not back at the body's start).
  // Not on the first page (the skip link is the first stop) nor when only the query changes.
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    heading.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  // Mobile: the sidebar drawer closes on every navigation.
  useEffect(() => setDrawerOpen(false), [location.pathname]);

  useEffect(() => {
    if (route && !location.pathname.startsWith('/redirect')) {
      visitTag({ path: route.path, fullPath: location.pathname + location.search });
    }
  }, [route, location.pathname, location.search]);

  useEffect(() => pruneTags((path) => table.byPath.has(path)), [table]);

  useEffect(() => {
    const site = siteText(config, 'title', currentLanguage()) || t('common:appName');
    document.title = route ? `${route.title} - ${site}` : site;
  }, [route, config, t, i18n.language]);

  const toggle = () => {
    if (isMobile) setDrawerOpen((o) => !o);
    else {
      setSidebarOpened(!opened);
      setOpened(!opened);
    }
  };

  const sidebar = isMobile ? (
    <Suspense fallback={null}>
      <MobileSidebar table={table} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
    </Suspense>
  ) : (
    <AntLayout.Sider
      width={SIDEBAR_WIDTH}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
      collapsed={!opened}
      trigger={null}
      style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'hidden' }}
    >
      <Sidebar table={table} collapsed={!opened} />
    </AntLayout.Sider>
  );

  return (
    <AntLayout style={{ minHeight: '100vh' }} data-testid="layout" data-mobile={isMobile ? 'true' : 'false'}>
      {/* The first stop of Tab: past the sidebar and the navbar straight to the page. */}
      <a
        href="#main-heading"
        className="skip-link"
        data-testid="skip-link"
        onClick={(e) => {
          e.preventDefault();
          heading.current?.focus();
        }}
      >
        {t('navbar:skipToContent')}
      </a>
      {sidebar}
      <AntLayout style={{ minWidth: 0 }}>
        <div
          data-testid="layout-header"
          style={settings.fixedHeader ? { position: 'sticky', top: 0, zIndex: 10 } : undefined}
        >
          <Navbar
            table={table}
            isMobile={isMobile}
            sidebarOpened={isMobile ? drawerOpen : opened}
            onToggleSidebar={toggle}
            onOpenSettings={() => setSettingsOpen(true)}
          />
          {settings.tagsView && <TagsView table={table} />}
        </div>
        <AntLayout.Content style={{ padding: 16, background: token.colorBgLayout }}>
          {/* One h1 per page for screen readers; the breadcrumb and the tab show the title. */}
          {/* tabIndex -1: the skip link and a navigation move the focus here. */}
          {route && (
            <h1 id="main-heading" ref={heading} tabIndex={-1} className="visually-hidden" data-testid="page-heading">
              {pageTitles[route.path] ?? route.title}
            </h1>
          )}
          <Suspense fallback={<PageSpin />}>
            <Outlet />
          </Suspense>
        </AntLayout.Content>
      </AntLayout>
      {settingsOpen && (
        <Suspense fallback={null}>
          <SettingsDrawer open onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </AntLayout>
  );
}
