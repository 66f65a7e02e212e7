import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Dropdown, theme, type MenuProps } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { HOME_PATH, type RouteTable } from '../route-table';
import { closeAllTags, closeOtherTags, closeTag, useVisitedTags, type VisitedTag } from '../../lib/tags';
import { usePageTitles } from '../../lib/page-title';

/** §9: width of the tag context menu. */
const CONTEXT_MENU_WIDTH = 105;

/** Tabs of visited views (§2); pinned ones first and without a close icon. */
export function TagsView({ table }: { table: RouteTable }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const visited = useVisitedTags();
  const pageTitles = usePageTitles();
  const barRef = useRef<HTMLElement>(null);

  const pinned: VisitedTag[] = table.affix.map(
    (path) => visited.find((v) => v.path === path) ?? { path, fullPath: path },
  );
  const tags = [...pinned, ...visited.filter((v) => !table.affix.includes(v.path))];
  const isAffix = (path: string) => table.affix.includes(path);

  // The active tab is always in view: after a navigation, and when tabs are added or closed.
  useEffect(() => {
    barRef.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname, tags.length]);

  const close = (tag: VisitedTag) => {
    if (isAffix(tag.path)) return;
    closeTag(tag.path);
    if (tag.path === pathname) {
      const rest = tags.filter((v) => v.path !== tag.path);
      const last = rest[rest.length - 1];
      void navigate(last ? last.fullPath : HOME_PATH);
    }
  };

  /**
   * Keyboard: Enter opens a tab, Delete closes it, the arrows (and Home, End) move between tabs;
   * the context menu key or Shift+F10 opens the tab's menu (a `contextmenu` event).
   */
  const onTagKey = (e: KeyboardEvent<HTMLElement>, tag: VisitedTag) => {
    const all = [...(barRef.current?.querySelectorAll<HTMLElement>('[role="link"]') ?? [])];
    const at = all.indexOf(e.currentTarget);
    const moveTo = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: all.length - 1 }[e.key];
    if (e.key === 'Enter') void navigate(tag.fullPath);
    else if (e.key === 'Delete' && !isAffix(tag.path)) {
      all[at + 1 < all.length ? at + 1 : at - 1]?.focus();
      close(tag);
    } else if (moveTo !== undefined) {
      e.preventDefault();
      all[Math.max(0, Math.min(all.length - 1, moveTo))]?.focus();
    }
  };

  const menuFor = (tag: VisitedTag): MenuProps => ({
    style: { width: CONTEXT_MENU_WIDTH },
    items: [
      { key: 'refresh', label: <span data-testid="tag-menu-refresh">{t('navbar:tags.refresh')}</span> },
      ...(isAffix(tag.path)
        ? []
        : [{ key: 'close', label: <span data-testid="tag-menu-close">{t('navbar:tags.close')}</span> }]),
      { key: 'others', label: <span data-testid="tag-menu-close-others">{t('navbar:tags.closeOthers')}</span> },
      { key: 'all', label: <span data-testid="tag-menu-close-all">{t('navbar:tags.closeAll')}</span> },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'refresh') void navigate(`/redirect${tag.fullPath}`, { replace: true });
      else if (key === 'close') close(tag);
      else if (key === 'others') {
        closeOtherTags(tag.path, table.affix);
        if (tag.path !== pathname) void navigate(tag.fullPath);
      } else if (key === 'all') {
        closeAllTags(table.affix);
        if (!isAffix(pathname)) void navigate(HOME_PATH);
      }
    },
  });

  return (
    <nav
      ref={barRef}
      data-testid="tags-view"
      className="tags-view"
      aria-label={t('navbar:tags.label')}
      onWheel={(e) => {
        // A mouse wheel scrolls the row sideways; the scrollbar itself is hidden (styles.css).
        if (e.deltaY !== 0) e.currentTarget.scrollLeft += e.deltaY;
      }}
      style={{
        height: 34,
        display: 'flex',
        alignItems: 'center',
        gap: 5,
        padding: '0 10px',
        overflowX: 'auto',
        overflowY: 'hidden',
        whiteSpace: 'nowrap',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        boxShadow: '0 1px 3px 0 rgba(0,0,0,.08)',
      }}
    >
      {tags.map((tag) => {
        const active = tag.path === pathname;
        const title = pageTitles[tag.path] ?? table.byPath.get(tag.path)?.title ?? tag.path;
        return (
          <Dropdown key={tag.path} trigger={['contextMenu']} menu={menuFor(tag)}>
            <span
              data-testid={`tag-${tag.path}`}
              data-active={active ? 'true' : 'false'}
              role="link"
              tabIndex={0}
              aria-current={active ? 'page' : undefined}
              aria-keyshortcuts={isAffix(tag.path) ? undefined : 'Delete'}
              onClick={() => !active && void navigate(tag.fullPath)}
              onKeyDown={(e) => onTagKey(e, tag)}
              style={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 4,
                height: 26,
                padding: '0 8px',
                fontSize: 12,
                cursor: 'pointer',
                border: `1px solid ${active ? token.colorPrimary : token.colorBorder}`,
                background: active ? token.colorPrimary : token.colorBgContainer,
                color: active ? '#fff' : token.colorText,
                borderRadius: 2,
              }}
            >
              {active && (
                <span style={{ width: 8, height: 8, borderRadius: 4, background: '#fff', display: 'inline-block' }} />
              )}
              {title}
              {!isAffix(tag.path) && (
                <CloseOutlined
                  aria-label={t('navbar:tags.close')}
                  data-testid={`tag-close-${tag.path}`}
                  style={{ fontSize: 10 }}
                  onClick={(e) => {
                    e.stopPropagation();
                    close(tag);
                  }}
                />
              )}
            </span>
          </Dropdown>
        );
      })}
    </nav>
  );
}
