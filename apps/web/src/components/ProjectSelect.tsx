import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { projectRoutes } from '@iot/contract/plain';
import { api } from '../lib/api';
import { useDebounced } from '../lib/use-debounced';
import { projectKeys } from '../lib/query-keys';

/** Projects for pickers, searched by name on the server (the first 50 matches). */
function useProjectOptions(name: string) {
  const query = { name: name.trim(), limit: 50, sort: 'name', order: 'asc' } as const;
  return useQuery({
    queryKey: projectKeys.list(query),
    queryFn: () => api(projectRoutes.list, { query }),
    placeholderData: keepPreviousData,
    select: (page) => page.items.map((p) => ({ id: p.id, name: p.name })),
  });
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
  /** Given by a Form.Item (its label points at it), or a name where there is no label. */
  id?: string;
  'aria-label'?: string;
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
  id,
  'aria-label': ariaLabel,
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
      id={id}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}
