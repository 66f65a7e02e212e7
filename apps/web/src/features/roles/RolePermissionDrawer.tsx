import { useMemo, useState, type Key } from 'react';
import { Alert, Button, Drawer, Empty, Space, Spin, Tree, type TreeDataNode } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SUPERADMIN } from '@iot/contract/plain';
import type { Language, PermissionTreeNode, RoleDto } from '@iot/contract';
import { reloadMenus } from '../../lib/session';
import { permissionLabel, roleLabel } from '../../lib/acl-labels';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import { setRolePermissions, useRolePermissions } from './api';
import { roleKeys } from '../../lib/query-keys';

function nodeTitle(node: PermissionTreeNode, lang: Language): string {
  if (node.permissionId !== undefined) return permissionLabel(node.identification ?? '', node.title);
  const own = lang === 'zh' ? node.title : lang === 'en' ? node.titleEn : lang === 'es' ? node.titleEs : node.titleJa;
  return own?.trim() || node.titleEn?.trim() || node.title;
}

function toTreeData(nodes: PermissionTreeNode[], lang: Language, disabled: boolean): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title:
      n.permissionId !== undefined ? (
        <span data-testid={`perm-node-${n.identification}`}>{nodeTitle(n, lang)}</span>
      ) : (
        nodeTitle(n, lang)
      ),
    disableCheckbox: disabled,
    ...(n.children.length > 0 ? { children: toTreeData(n.children, lang, disabled) } : { isLeaf: true }),
  }));
}

/** key → permission id of every leaf. */
function leaves(nodes: PermissionTreeNode[], out = new Map<string, number>()): Map<string, number> {
  for (const n of nodes) {
    if (n.permissionId !== undefined) out.set(n.key, n.permissionId);
    leaves(n.children, out);
  }
  return out;
}

const menuKeys = (nodes: PermissionTreeNode[]): string[] =>
  nodes.flatMap((n) => (n.children.length > 0 ? [n.key, ...menuKeys(n.children)] : []));

interface Props {
  role: RoleDto | null;
  /** role:edit held by the caller. */
  canEdit: boolean;
  onClose: () => void;
}

/** A role's permission set as a checkable menu → permission tree (GET/POST /role/*permission). */
export function RolePermissionDrawer({ role, canEdit, onClose }: Props) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const queryClient = useQueryClient();
  const { data, isFetching } = useRolePermissions(role?.id);
  const [checked, setChecked] = useState<{ roleId: number; keys: string[] } | null>(null);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const [saving, setSaving] = useState(false);

  const isSuper = role?.identification === SUPERADMIN;
  const readOnly = !canEdit || !role?.editable || isSuper;
  const leafIds = useMemo(() => leaves(data?.tree ?? []), [data]);
  const treeData = useMemo(() => toTreeData(data?.tree ?? [], lang, readOnly), [data, lang, readOnly]);
  const allMenuKeys = useMemo(() => menuKeys(data?.tree ?? []), [data]);

  // The role's own set, until the user changes it.
  const held = useMemo(() => {
    if (!data) return [];
    if (isSuper) return [...leafIds.keys()];
    const ids = new Set(data.permissionIds);
    return [...leafIds].filter(([, id]) => ids.has(id)).map(([key]) => key);
  }, [data, leafIds, isSuper]);
  const checkedKeys = checked && checked.roleId === role?.id ? checked.keys : held;
  // Held permissions the caller may not grant are not in the tree; saving keeps them.
  const outside = useMemo(
    () => (data ? data.permissionIds.filter((id) => ![...leafIds.values()].includes(id)) : []),
    [data, leafIds],
  );

  const close = () => {
    setChecked(null);
    setExpanded(null);
    onClose();
  };

  const save = async () => {
    if (!role) return;
    const ids = checkedKeys.map((k) => leafIds.get(k)).filter((id): id is number => id !== undefined);
    setSaving(true);
    try {
      await setRolePermissions(role.id, [...new Set([...ids, ...outside])]);
      feedbackMessage().success(t('roles:permissionsSaved'));
      await queryClient.invalidateQueries({ queryKey: roleKeys.all });
      void reloadMenus().catch(() => undefined);
      close();
    } catch {
      // reported by the http client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={role !== null}
      onClose={close}
      size={520}
      destroyOnHidden
      title={role ? t('roles:permissionsOf', { name: roleLabel(role.identification, role.name) }) : ''}
      data-testid="perm-drawer"
      extra={
        !readOnly && (
          <Space>
            <Button onClick={close}>{t('common:cancel')}</Button>
            <Button type="primary" loading={saving} disabled={isFetching} onClick={() => void save()} data-testid="perm-save">
              {t('crud:save')}
            </Button>
          </Space>
        )
      }
    >
      {isSuper && <Alert type="info" showIcon title={t('roles:superHoldsAll')} style={{ marginBottom: 12 }} />}
      {!isSuper && role && !role.editable && (
        <Alert type="info" showIcon title={t('roles:notEditable')} style={{ marginBottom: 12 }} />
      )}
      {outside.length > 0 && !readOnly && (
        <Alert type="warning" showIcon title={t('roles:outsideKept', { count: outside.length })} style={{ marginBottom: 12 }} />
      )}
      {!readOnly && (
        <Space wrap style={{ marginBottom: 8 }}>
          <Button size="small" onClick={() => role && setChecked({ roleId: role.id, keys: [...leafIds.keys()] })} data-testid="perm-check-all">
            {t('roles:checkAll')}
          </Button>
          <Button size="small" onClick={() => role && setChecked({ roleId: role.id, keys: [] })} data-testid="perm-check-none">
            {t('roles:checkNone')}
          </Button>
          <Button size="small" onClick={() => setExpanded(allMenuKeys)}>
            {t('roles:expandAll')}
          </Button>
          <Button size="small" onClick={() => setExpanded([])}>
            {t('roles:collapseAll')}
          </Button>
        </Space>
      )}
      {isFetching && !data ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : treeData.length === 0 ? (
        <Empty description={t('roles:nothingToGrant')} />
      ) : (
        <div data-testid="perm-tree">
        <Tree
          checkable
          selectable={false}
          treeData={treeData}
          checkedKeys={checkedKeys}
          expandedKeys={expanded ?? allMenuKeys}
          onExpand={(keys) => setExpanded(keys)}
          onCheck={(keys) => {
            if (!role) return;
            const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
            setChecked({ roleId: role.id, keys: list.filter((k) => leafIds.has(k)) });
          }}
        />
        </div>
      )}
    </Drawer>
  );
}
