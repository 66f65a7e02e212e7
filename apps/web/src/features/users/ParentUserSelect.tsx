import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserOption } from '@iot/contract';
import { useUserOptions } from '../../lib/use-user-options';

interface Props {
  value?: number;
  onChange?: (value: number) => void;
  /** The current parent, shown before any search (it may not be in the first page of options). */
  initial?: UserOption;
  /** Users that cannot be the parent (the edited user itself). */
  exclude?: number;
  disabled?: boolean;
  /** Given by a Form.Item (its label points at it). */
  id?: string;
}

/** Searchable parent-user picker over GET /user/options?q= (the caller's subtree). */
export function ParentUserSelect({ value, onChange, initial, exclude, disabled, id }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), 300);
    return () => clearTimeout(timer);
  }, [input]);
  const { data = [], isFetching } = useUserOptions(q, !disabled);
  const options = useMemo(() => {
    const list = data.filter((o) => o.id !== exclude);
    if (initial && !list.some((o) => o.id === initial.id)) list.unshift(initial);
    return list.map((o) => ({ value: o.id, label: o.name }));
  }, [data, initial, exclude]);

  return (
    <Select<number>
      value={value}
      onChange={onChange}
      disabled={disabled}
      loading={isFetching}
      options={options}
      placeholder={t('users:parentPlaceholder')}
      showSearch={{ filterOption: false, onSearch: setInput }}
      notFoundContent={isFetching ? t('users:searching') : t('users:noUsers')}
      id={id}
      data-testid="field-parentId"
    />
  );
}
