import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDevice, useDeviceSearch, useTypeOptions } from './api';
import { useDebounced } from '../../lib/use-debounced';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';

interface TypeSelectProps {
  value?: number;
  onChange?: (value: number | undefined) => void;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  /** Given by a Form.Item (its label points at it), or a name where there is no label. */
  id?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** Device types (name and code); filtered in the browser, the list is short. */
export function TypeSelect({ value, onChange, placeholder, allowClear, style, id, 'aria-label': ariaLabel, 'data-testid': testId }: TypeSelectProps) {
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
      id={id}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}

interface DeviceSelectProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** A device not offered (the edited device cannot be its own parent). */
  exclude?: number;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  /** Given by a Form.Item (its label points at it). */
  id?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A device by SN or name prefix (GET /device/seachList); the chosen one is named even when not among the matches. */
export function DeviceSelect({ value, onChange, exclude, placeholder, allowClear = true, style, id, 'aria-label': ariaLabel, 'data-testid': testId }: DeviceSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { data = [], isFetching } = useDeviceSearch(useDebounced(search));
  const current = useDevice(value);
  const options = useMemo(() => {
    const list = data.filter((d) => d.id !== exclude).map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` }));
    if (value && current.data && !list.some((o) => o.value === value)) {
      list.unshift({ value, label: `${current.data.name} (${current.data.sn})` });
    }
    return list;
  }, [data, exclude, value, current.data]);
  return (
    <Select<number>
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      loading={isFetching}
      allowClear={allowClear}
      placeholder={placeholder}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      notFoundContent={search.trim() ? t('devices:noMatch') : t('devices:typeToSearch')}
      style={style}
      id={id}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}

/** Parent device by SN or name prefix. */
export function ParentDeviceSelect({ selfId, ...props }: Omit<DeviceSelectProps, 'exclude' | 'placeholder'> & { selfId?: number }) {
  const { t } = useTranslation();
  return <DeviceSelect {...props} exclude={selfId} placeholder={t('devices:placeholders.parent')} />;
}
