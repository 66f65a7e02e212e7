import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Select, type RefSelectProps } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { searchRoutes, type PermissionCode } from '@iot/contract/plain';
import type { SearchResult } from '@iot/contract';
import { IconButton } from '../../components/IconButton';
import { api } from '../../lib/api';
import { searchKeys } from '../../lib/query-keys';
import { useMenuPage, usePermission } from '../../lib/session';
import { useDebounced } from '../../lib/use-debounced';
import type { RouteTable } from '../route-table';
import { useSettings } from '../settings';
import { matchesQuery, searchEntries, type PinyinFn } from './menu-search';

/** pinyin-pro is large: it is loaded only when Chinese pinyin search is actually on. */
function usePinyin(enabled: boolean): PinyinFn | undefined {
  const [fn, setFn] = useState<PinyinFn>();
  useEffect(() => {
    if (!enabled || fn) return;
    let cancelled = false;
    void import('pinyin-pro').then(({ pinyin }) => {
      if (cancelled) return;
      setFn(() => (text: string, initials: boolean) =>
        pinyin(text, { toneType: 'none', type: 'array', ...(initials ? { pattern: 'first' } : {}) }).join(''),
      );
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, fn]);
  return enabled ? fn : undefined;
}

/** The codes that open GET /search: each group's list code (contract routes/search.ts). */
const SEARCH_CODES = searchRoutes.find.permission as readonly PermissionCode[];
/** Shorter texts match too much to be worth a request; menus are matched from the first letter. */
const SERVER_MIN = 2;

/** Devices, projects and users matching the text, as the server scopes them (debounced). */
function useServerSearch(text: string) {
  const allowed = usePermission(SEARCH_CODES);
  const q = useDebounced(text.trim(), 250);
  const enabled = allowed && q.length >= SERVER_MIN;
  const query = useQuery({
    queryKey: searchKeys.find(q),
    queryFn: ({ signal }) => api(searchRoutes.find, { query: { q }, signal, silent: true }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const settled = !enabled || (q === text.trim() && !query.isFetching);
  return { data: enabled ? query.data : undefined, settled };
}

interface Group {
  key: string;
  title: string;
  options: { value: string; label: ReactNode; title: string }[];
}

/** Where a user found by the search is listed: the agent screen lists every kind. */
function userPage(type: number, screens: { agent: boolean; admin: boolean; user: boolean }): string | undefined {
  if (screens.agent) return '/user/agent';
  if (type === 0 && screens.admin) return '/sys/adminuser';
  if (type === 1 && screens.user) return '/sys/user';
  return undefined;
}

/** The server's hits as option groups, each linking where the user can open it. */
function useServerGroups(data: SearchResult | undefined): Group[] {
  const { t } = useTranslation();
  const details = useMenuPage('/project/info');
  const projectDetails = useMenuPage('/project/details');
  const screens = {
    agent: useMenuPage('/user/agent'),
    admin: useMenuPage('/sys/adminuser'),
    user: useMenuPage('/sys/user'),
  };
  if (!data) return [];
  const groups: Group[] = [];
  const option = (value: string, testId: string, text: string) => ({
    value,
    title: text,
    label: <span data-testid={testId}>{text}</span>,
  });
  if (data.devices?.length) {
    groups.push({
      key: 'devices',
      title: t('navbar:searchGroups.devices'),
      options: data.devices.map((d) =>
        option(details ? `/project/info?id=${d.id}` : `/device/list?q=${encodeURIComponent(d.sn)}`, `search-option-device-${d.id}`, `${d.sn} · ${d.name}`),
      ),
    });
  }
  if (data.projects?.length) {
    groups.push({
      key: 'projects',
      title: t('navbar:searchGroups.projects'),
      options: data.projects.map((p) =>
        option(projectDetails ? `/project/details?id=${p.id}` : '/project/index', `search-option-project-${p.id}`, p.name),
      ),
    });
  }
  const users = (data.users ?? []).flatMap((u) => {
    const page = userPage(u.type, screens);
    return page ? [option(`${page}?username=${encodeURIComponent(u.username)}`, `search-option-user-${u.id}`, u.username)] : [];
  });
  if (users.length) groups.push({ key: 'users', title: t('navbar:searchGroups.users'), options: users });
  return groups;
}

/**
 * Navbar search: every visible page (pinyin matching in Chinese, a setting) and, from the server,
 * the caller's devices (SN, name), projects and users, in groups. Enter opens the highlighted hit:
 * a device its details page.
 */
export function HeaderSearch({ table }: { table: RouteTable }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pinyinSearch } = useSettings();
  const pinyin = usePinyin(pinyinSearch && i18n.language === 'zh');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const ref = useRef<RefSelectProps>(null);
  const entries = useMemo(() => searchEntries(table, pinyin), [table, pinyin]);
  const server = useServerSearch(query);
  const serverGroups = useServerGroups(server.data);
  const options = useMemo(() => {
    const menus = entries
      .filter((e) => matchesQuery(e, query))
      .map((e) => ({ value: e.path, title: e.label, label: <span data-testid={`search-option-${e.path}`}>{e.label}</span> }));
    const groups: Group[] = menus.length ? [{ key: 'menus', title: t('navbar:searchGroups.menus'), options: menus }] : [];
    return [...groups, ...serverGroups].map((g) => ({
      label: <span data-testid={`search-group-${g.key}`}>{g.title}</span>,
      title: g.title,
      options: g.options,
    }));
  }, [entries, query, serverGroups, t]);

  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);

  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <IconButton
        label={t('navbar:search')}
        aria-expanded={open}
        data-testid="header-search-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        <SearchOutlined />
      </IconButton>
      {open && (
        <Select
          ref={ref}
          showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
          value={null}
          placeholder={t('navbar:searchPlaceholder')}
          aria-label={t('navbar:searchPlaceholder')}
          notFoundContent={query ? t(server.settled ? 'navbar:searchEmpty' : 'navbar:searching') : null}
          popupMatchSelectWidth={320}
          options={options}
          onChange={(path: string) => {
            setQuery('');
            setOpen(false);
            void navigate(path);
          }}
          onBlur={() => {
            setQuery('');
            setOpen(false);
          }}
          style={{ width: 240 }}
          data-testid="header-search"
        />
      )}
    </span>
  );
}
