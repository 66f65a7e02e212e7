import type { ReactNode } from 'react';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SUPERADMIN } from '@iot/contract/plain';
import type { DeviceTypeDto, PermissionCode } from '@iot/contract';
import { usePermission, useSession } from '../../lib/session';
import { ApiError, describeError, refusalOf } from '../../lib/http';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';

export const LIST_PATH = '/device/type';

/**
 * The name read out for a cell editor of the parameter and alarm tables, which have no visible
 * label but their column: "Unit, row 3".
 */
export function cellLabel(t: TFunction, column: string, row: number): string {
  return t('devicetypes:cellLabel', { column, row: row + 1 });
}

/** The `?id=` of the hidden type pages, or undefined when it is missing or not a positive integer. */
export function useTypeId(): number | undefined {
  const [search] = useSearchParams();
  const raw = search.get('id') ?? '';
  return /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
}

/** The built-in type belongs to the platform: only the super administrator changes it. */
export function useIsSuperAdmin(): boolean {
  const { user } = useSession();
  return user?.roles.includes(SUPERADMIN) ?? false;
}

/** Whether the user may change this type with `code` (the server refuses built-ins otherwise). */
export function useCanChange(code: PermissionCode, type: Pick<DeviceTypeDto, 'builtin'> | undefined): boolean {
  const allowed = usePermission(code);
  const isSuper = useIsSuperAdmin();
  return allowed && !!type && (!type.builtin || isSuper);
}

export function BackToList() {
  const { t } = useTranslation();
  return (
    <Link to={LIST_PATH} data-testid="link-back">
      <Space size={4}>
        <ArrowLeftOutlined />
        {t('devicetypes:backToList')}
      </Space>
    </Link>
  );
}

/** Header of the settings pages: back link, the type's name and code, then `extra` on the right. */
export function TypeHeader({ type, title, extra }: { type: DeviceTypeDto | undefined; title: string; extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12 }}
      data-testid="type-header"
    >
      <Space size={16} wrap>
        <BackToList />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {type && (
          <Space size={8} wrap>
            <Typography.Text strong data-testid="type-name">
              {localName(type, currentLanguage())}
            </Typography.Text>
            <Tag data-testid="type-code">{type.code}</Tag>
            {type.builtin && <Tag color="purple">{t('devicetypes:builtin')}</Tag>}
          </Space>
        )}
      </Space>
      {extra}
    </div>
  );
}

/** Shown instead of a settings page when `?id` is missing or names no visible type. */
export function TypeNotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('devicetypes:notFound')}
      data-testid="type-not-found"
      extra={
        <Link to={LIST_PATH}>
          <Button type="primary">{t('devicetypes:backToList')}</Button>
        </Link>
      }
    />
  );
}

/**
 * A server validation error that names a field of a list, `params.3.semaphoreId` or
 * `rules.0.threshold`, as a form path (`['params', 3, 'semaphoreId']`), else undefined.
 */
export function listFieldOf(err: unknown, list: string): { path: [string, number, string]; message: string } | undefined {
  if (!(err instanceof ApiError) || err.code !== 40000) return undefined;
  const field = (err.data as { field?: unknown } | null)?.field;
  if (typeof field !== 'string') return undefined;
  const [head, index, name] = field.split('.');
  if (head !== list || !index || !/^\d+$/.test(index) || !name) return undefined;
  const path: [string, number, string] = [list, Number(index), name];
  // A refusal reason is shown in the UI language; else the server's message, which may repeat
  // the field path in front of the reason.
  if (refusalOf(err.data)) return { path, message: describeError(err) };
  const prefix = `${field}: `;
  return { path, message: err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message };
}
