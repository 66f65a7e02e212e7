import type { ReactNode } from 'react';
import { Button, Popconfirm } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A list page's "Add" button: primary, with the plus icon, `btn-add`. */
export function AddButton({ onClick, children, testId = 'btn-add' }: { onClick: () => void; children?: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
      {children ?? t('crud:add')}
    </Button>
  );
}

/** A row's plain link button (edit, details, …). */
export function RowLink({ onClick, testId, children }: { onClick: () => void; testId: string; children: ReactNode }) {
  return (
    <Button type="link" size="small" onClick={onClick} data-testid={testId}>
      {children}
    </Button>
  );
}

interface ConfirmLinkProps {
  /** The question, e.g. "Delete role X?". */
  title: ReactNode;
  description?: ReactNode;
  onConfirm: () => unknown;
  /** data-testid of the row's button; the confirming button is always `confirm-ok`. */
  testId: string;
  danger?: boolean;
  icon?: ReactNode;
  children: ReactNode;
}

/** A row's link button that asks first, in a popover beside it (unlock, …). */
export function ConfirmLink({ title, description, onConfirm, testId, danger, icon, children }: ConfirmLinkProps) {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      okButtonProps={{ danger, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
      onConfirm={onConfirm}
    >
      <Button type="link" size="small" danger={danger} icon={icon} data-testid={testId}>
        {children}
      </Button>
    </Popconfirm>
  );
}

/** A row's "Delete" link with its confirmation (§ every delete asks first). */
export function DeleteLink(props: Omit<ConfirmLinkProps, 'danger' | 'children'> & { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ConfirmLink {...props} danger>
      {props.children ?? t('crud:delete')}
    </ConfirmLink>
  );
}
