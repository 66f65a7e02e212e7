import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, type RefSelectProps } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { IconButton } from '../../components/IconButton';
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

/** Navbar menu search over every visible page; pinyin matching in Chinese (setting). */
export function HeaderSearch({ table }: { table: RouteTable }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pinyinSearch } = useSettings();
  const pinyin = usePinyin(pinyinSearch && i18n.language === 'zh');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const ref = useRef<RefSelectProps>(null);
  const entries = useMemo(() => searchEntries(table, pinyin), [table, pinyin]);
  const options = useMemo(
    () =>
      entries
        .filter((e) => matchesQuery(e, query))
        .map((e) => ({ value: e.path, label: <span data-testid={`search-option-${e.path}`}>{e.label}</span> })),
    [entries, query],
  );

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
          notFoundContent={query ? t('navbar:searchEmpty') : null}
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
          style={{ width: 210 }}
          data-testid="header-search"
        />
      )}
    </span>
  );
}
