import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDevice, useDeviceSearch, useProjectOptions, useTypeOptions } from './api';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';

/** A value that follows `value` after `ms` without changes (server-side search while typing). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Value of the "no project" option (the API's `projectId: null`, `moveTo=0`). */
export const NO_PROJECT = 0;

interface ProjectSelectProps {
  value?: number | null;
  onChange?: (value: number | null | undefined, name?: string) => void;
  /** Name of the current value, shown before the search has found it. */
  currentName?: string | null;
  /** Offer "no project" (value 0 in the select, null to the caller). */
  allowNone?: boolean;
  /** Leave these projects out (e.g. the one being deleted). */
  exclude?: number[];
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** Projects searched by name on the server. */
export function ProjectSelect({
  value,
  onChange,
  currentName,
  allowNone,
  exclude = [],
  placeholder,
  allowClear = true,
  style,
  'data-testid': testId,
}: ProjectSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { data = [], isFetching } = useProjectOptions(useDebounced(search));
  const options = useMemo(() => {
    const list = data.filter((p) => !exclude.includes(p.id)).map((p) => ({ value: p.id, label: p.name }));
    if (value && currentName && !list.some((o) => o.value === value)) list.unshift({ value, label: currentName });
    if (allowNone) list.unshift({ value: NO_PROJECT, label: t('devices:noProject') });
    return list;
  }, [data, exclude, value, currentName, allowNone, t]);
  return (
    <Select<number>
      value={value === null ? (allowNone ? NO_PROJECT : undefined) : value}
      onChange={(v, option) => {
        const label = (Array.isArray(option) ? undefined : option?.label) as string | undefined;
        onChange?.(v === NO_PROJECT && allowNone ? null : v, label);
      }}
      options={options}
      loading={isFetching}
      allowClear={allowClear}
      placeholder={placeholder ?? t('devices:placeholders.project')}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      onOpenChange={(open) => !open && setSearch('')}
      notFoundContent={t('devices:noMatch')}
      style={style}
      data-testid={testId}
    />
  );
}

interface TypeSelectProps {
  value?: number;
  onChange?: (value: number | undefined) => void;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** Device types (name and code); filtered in the browser, the list is short. */
export function TypeSelect({ value, onChange, placeholder, allowClear, style, 'data-testid': testId }: TypeSelectProps) {
  const { t } = useTranslation();
  const { data = [], isFetching } = useTypeOptions();
  return (
    <Select<number>
      value={value}
      onChange={onChange}
      loading={isFetching}
      allowClear={allowClear}
      placeholder={placeholder ?? t('devices:placeholders.type')}
      options={data.map((o) => ({ value: o.id, label: `${localName(o, currentLanguage())} (${o.code})` }))}
      showSearch={{ optionFilterProp: 'label' }}
      style={style}
      data-testid={testId}
    />
  );
}

interface ParentSelectProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The edited device: it cannot be its own parent. */
  selfId?: number;
  'data-testid'?: string;
}

/** Parent device by SN or name prefix (GET /device/seachList). */
export function ParentDeviceSelect({ value, onChange, selfId, 'data-testid': testId }: ParentSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { data = [], isFetching } = useDeviceSearch(useDebounced(search));
  const current = useDevice(value);
  const options = useMemo(() => {
    const list = data.filter((d) => d.id !== selfId).map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` }));
    if (value && current.data && !list.some((o) => o.value === value)) {
      list.unshift({ value, label: `${current.data.name} (${current.data.sn})` });
    }
    return list;
  }, [data, selfId, value, current.data]);
  return (
    <Select<number>
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      loading={isFetching}
      allowClear
      placeholder={t('devices:placeholders.parent')}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      notFoundContent={search.trim() ? t('devices:noMatch') : t('devices:typeToSearch')}
      data-testid={testId}
    />
  );
}
