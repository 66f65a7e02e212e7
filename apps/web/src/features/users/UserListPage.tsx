import { useMemo, useState } from 'react';
import { Card, Drawer, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PermissionCode, UserDto, UserKind } from '@iot/contract';
import { useSession } from '../../lib/session';
import { EmailManager } from '../../components/EmailManager';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { AddButton, ConfirmLink, DeleteLink, RowLink } from '../../components/ListActions';
import { roleLabel } from '../../lib/acl-labels';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import {
  createUser,
  deleteUser,
  editUser,
  resetPassword,
  unlockUser,
  useRoleOptions,
  useUserList,
  type UserCreateInput,
  type UserFilters,
  type UserSort,
} from './api';
import { ResetPasswordModal } from './ResetPasswordModal';
import { UserForm, type UserFormValues } from './UserForm';
import { userKeys } from '../../lib/query-keys';

type Editing = { mode: 'add' } | { mode: 'edit'; user: UserDto } | null;

/** Codes that open GET /role/getoptionslist (role filter and role picker). */
const ROLE_OPTION_CODES: readonly string[] = ['role:list', 'admin:add', 'admin:edit', 'user:add', 'user:edit', 'agent:add', 'agent:edit'];

const EMPTY = '—';

/**
 * One page for the three user screens: administrators (/sys/adminuser), company users
 * (/sys/user) and the caller's own sub-users (/user/agent). Buttons follow `<kind>:*` codes.
 */
export function UserListPage({ kind }: { kind: UserKind }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useSession();
  const held = useMemo(() => new Set<string>(me?.permissions ?? []), [me]);
  const can = (verb: 'add' | 'edit' | 'delete' | 'list') => held.has(`${kind}:${verb}` satisfies PermissionCode);
  const canAdd = can('add');
  const canEdit = can('edit');
  const canDelete = can('delete');
  const canList = can('list');
  const table = useServerTable<UserFilters, UserSort>({
    sort: 'createdAt',
    order: 'desc',
    url: { username: 'string', roleId: 'number', enabled: 'string' },
  });
  const { data, isFetching } = useUserList(kind, table.params);
  const { data: roles = [] } = useRoleOptions(ROLE_OPTION_CODES.some((c) => held.has(c)));
  const [editing, setEditing] = useState<Editing>(null);
  const [passwordOf, setPasswordOf] = useState<UserDto | null>(null);
  const [emailsOf, setEmailsOf] = useState<UserDto | null>(null);

  if (!me) return null;
  const meOption = { id: me.id, name: me.name };
  const changed = () => queryClient.invalidateQueries({ queryKey: userKeys.all });

  const save = async (values: UserFormValues) => {
    if (editing?.mode === 'edit') {
      const self = editing.user.id === me.id;
      const { username: _u, password: _p, ...fields } = values;
      await editUser({
        id: editing.user.id,
        ...fields,
        // Oneself: role, parent, type and state are fixed (the server refuses a change).
        ...(self ? { type: undefined, roleId: undefined, parentId: undefined, enabled: undefined } : {}),
      });
      feedbackMessage().success(t('crud:updated'));
    } else {
      await createUser(values as UserCreateInput);
      feedbackMessage().success(t('crud:created'));
    }
    setEditing(null);
    await changed();
  };

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      feedbackMessage().success(done);
      await changed();
    } catch {
      // reported by the http client
    }
  };

  const columns: DataColumn<UserDto>[] = [
    {
      title: t('users:username'),
      dataIndex: 'username',
      key: 'username',
      sorter: true,
      sortOrder: table.sortOrderOf('username'),
      width: 140,
      // The parent under the name: who a user belongs to, without a column of its own.
      render: (v: string, u) => (
        <span>
          <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 124, display: 'block' }}>
            {v}
          </Typography.Text>
          {u.parentName && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: u.parentName }} style={{ maxWidth: 124, display: 'block', fontSize: 12 }}>
              {t('users:parent')}: {u.parentName}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('users:type'),
      dataIndex: 'type',
      key: 'type',
      width: 100,
      phone: true,
      render: (v: number) => <Tag color={v === 0 ? 'geekblue' : 'cyan'}>{t(`users:types.${v === 0 ? 0 : 1}`)}</Tag>,
    },
    {
      title: t('users:role'),
      dataIndex: 'roleName',
      key: 'roleName',
      width: 150,
      phone: true,
      render: (_, u) => roleLabel(u.roleIdentification, u.roleName),
    },
    {
      title: t('users:corporateName'),
      dataIndex: 'corporateName',
      key: 'corporateName',
      width: 160,
      optional: true,
      render: (v: string) => v || EMPTY,
    },
    { title: t('users:contactNumber'), dataIndex: 'contactNumber', key: 'contactNumber', width: 140, optional: true, render: (v: string) => v || EMPTY },
    {
      title: t('users:dashboardStyle'),
      dataIndex: 'dashboardStyle',
      key: 'dashboardStyle',
      width: 110,
      optional: true,
      render: (v: string) => t(`users:dashboardStyles.${v}`, { defaultValue: v }),
    },
    { title: t('users:language'), dataIndex: 'language', key: 'language', width: 100, optional: true, render: (v: string) => t(`users:languages.${v}`, { defaultValue: v }) },
    {
      title: t('users:state'),
      key: 'state',
      width: 130,
      phone: true,
      ellipsis: false,
      render: (_, u) => (
        <Space size={4} wrap>
          {u.enabled ? <Tag color="success">{t('users:enabledTag')}</Tag> : <Tag color="default">{t('users:disabledTag')}</Tag>}
          {u.locked && <Tag color="error">{t('users:lockedTag')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('crud:createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
  ];
  if (canEdit || canDelete || canList) {
    columns.push({
      title: t('crud:actions'),
      key: 'actions',
      width: 280,
      fixed: 'end',
      render: (_, u) => {
        const self = u.id === me.id;
        return (
          <Space size={0} wrap>
            {canEdit && (
              <RowLink testId={`row-edit-${u.id}`} onClick={() => setEditing({ mode: 'edit', user: u })}>
                {t('crud:edit')}
              </RowLink>
            )}
            {canEdit && !self && (
              <RowLink testId={`row-password-${u.id}`} onClick={() => setPasswordOf(u)}>
                {t('users:resetPassword')}
              </RowLink>
            )}
            {canEdit && u.locked && (
              <ConfirmLink
                title={t('users:unlockConfirm', { name: u.username })}
                onConfirm={() => act(() => unlockUser(u.id), t('users:unlocked'))}
                testId={`row-unlock-${u.id}`}
              >
                {t('users:unlock')}
              </ConfirmLink>
            )}
            <RowLink testId={`row-emails-${u.id}`} onClick={() => setEmailsOf(u)}>
              {t('users:emails')}
            </RowLink>
            {canDelete && !self && (
              <DeleteLink
                title={t('users:deleteConfirm', { name: u.username })}
                onConfirm={() => act(() => deleteUser(u.id), t('crud:deleted'))}
                testId={`row-delete-${u.id}`}
              />
            )}
          </Space>
        );
      },
    });
  }

  return (
    <Card data-testid={`page-${kind}`}>
      <FilterBar<UserFilters>
        onSearch={table.search}
        values={table.filters}
        extra={canAdd && <AddButton onClick={() => setEditing({ mode: 'add' })} />}
      >
        <Form.Item name="username">
          <Input placeholder={t('users:username')} aria-label={t('users:username')} allowClear data-testid="filter-username" style={{ width: 170 }} />
        </Form.Item>
        {roles.length > 0 && (
          <Form.Item name="roleId">
            <Select
              allowClear
              placeholder={t('users:role')}
              aria-label={t('users:role')}
              style={{ width: 180 }}
              options={roles.map((r) => ({ value: r.id, label: roleLabel(r.identification, r.name) }))}
              data-testid="filter-roleId"
            />
          </Form.Item>
        )}
        <Form.Item name="enabled">
          <Select
            allowClear
            placeholder={t('users:enabled')}
            aria-label={t('users:enabled')}
            style={{ width: 140 }}
            options={[
              { value: 'true', label: t('users:enabledTag') },
              { value: 'false', label: t('users:disabledTag') },
            ]}
            data-testid="filter-enabled"
          />
        </Form.Item>
      </FilterBar>
      <DataTable<UserDto>
        tableId={`users-${kind}`}
        columns={columns}
        data-testid={`table-${kind === 'admin' ? 'adminuser' : kind}`}
        {...table.tableProps(data, isFetching)}
      />
      <UserForm
        open={editing !== null}
        kind={kind}
        user={editing?.mode === 'edit' ? editing.user : undefined}
        me={meOption}
        roles={roles}
        onCancel={() => setEditing(null)}
        onSubmit={save}
      />
      <ResetPasswordModal
        user={passwordOf}
        onCancel={() => setPasswordOf(null)}
        onSubmit={async (password) => {
          if (!passwordOf) return;
          await resetPassword(passwordOf.id, password);
          feedbackMessage().success(t('users:passwordReset'));
          setPasswordOf(null);
          await changed();
        }}
      />
      <Drawer
        open={emailsOf !== null}
        onClose={() => setEmailsOf(null)}
        size={480}
        destroyOnHidden
        title={t('users:emailsOf', { name: emailsOf?.username ?? '' })}
        data-testid="email-drawer"
      >
        {emailsOf && <EmailManager userId={emailsOf.id} canEdit={canEdit || emailsOf.id === me.id} />}
      </Drawer>
    </Card>
  );
}
