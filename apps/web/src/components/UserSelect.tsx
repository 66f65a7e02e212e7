import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { USER_PICKER_PERMISSIONS } from '@iot/contract/plain';
import type { UserOption } from '@iot/contract';
import { usePermission } from '../lib/session';
import { useDebounced } from '../lib/use-debounced';
// Users are searched as on the user screens (one hook, one contract type).
import { useUserOptions } from '../lib/use-user-options';

interface BaseProps {
  /** Users already known by name (the current owner, the project's users). */
  known?: UserOption[];
  placeholder?: string;
  style?: React.CSSProperties;
  /** Given by a Form.Item (its label points at it). */
  id?: string;
  'data-testid'?: string;
}

type Props = BaseProps &
  (
    | { mode?: undefined; value?: number; onChange?: (value: number | undefined) => void }
    | { mode: 'multiple'; value?: number[]; onChange?: (value: number[]) => void }
  );

/**
 * Users of the caller's subtree, searched by name on the server (GET /user/options?q=). A caller
 * without a user-management code may not search: it chooses among the users it already knows
 * (itself, the current owner, the project's users) and no request is made.
 */
export function UserSelect(props: Props) {
  const { known = [], placeholder, style, id, 'data-testid': testId } = props;
  const { t } = useTranslation();
  const canSearch = usePermission(USER_PICKER_PERMISSIONS);
  const [search, setSearch] = useState('');
  const { data = [], isFetching } = useUserOptions(useDebounced(search), canSearch, { limit: 30, silent: true });
  const options = useMemo(() => {
    const byId = new Map<number, string>();
    for (const u of [...known, ...data]) byId.set(u.id, u.name);
    return [...byId].map(([value, label]) => ({ value, label }));
  }, [known, data]);
  const common = {
    options,
    loading: isFetching,
    placeholder: placeholder ?? t(canSearch ? 'projects:placeholders.user' : 'projects:placeholders.knownUser'),
    showSearch: canSearch ? { filterOption: false, onSearch: setSearch } : false,
    onOpenChange: (open: boolean) => !open && setSearch(''),
    notFoundContent: t(canSearch ? 'projects:noMatch' : 'projects:userSearchOff'),
    style,
    id,
    'data-testid': testId,
  };
  if (props.mode === 'multiple') {
    return (
      <Select<number[]>
        {...common}
        mode="multiple"
        value={props.value}
        onChange={(v) => props.onChange?.(v)}
        onSelect={() => setSearch('')}
      />
    );
  }
  return <Select<number> {...common} value={props.value} onChange={(v) => props.onChange?.(v)} />;
}
