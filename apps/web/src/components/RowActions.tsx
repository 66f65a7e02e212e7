import type { ReactNode } from 'react';
import { App, Button, Dropdown, Popconfirm, Space } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { MoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export interface RowAction {
  key: string;
  label: ReactNode;
  onClick: () => void;
  danger?: boolean;
  /** data-testid of the button (desktop) or of the menu entry (phone). */
  testId?: string;
  /** Asks before acting (deletes). */
  confirm?: { title: ReactNode; description?: ReactNode; okText?: ReactNode };
}

const okProps = (danger?: boolean) => ({
  danger,
  ...({ 'data-testid': 'confirm-ok' } as Record<string, string>),
});

/**
 * The actions of one table row: link buttons on a desktop, one "more" menu on a phone so that the
 * row's identifying columns stay visible (below 992 px the whole table is narrower than the
 * buttons). A confirmation is a popover beside the button, or a dialog from the menu.
 */
export function RowActions({ actions, compact, rowKey }: { actions: RowAction[]; compact: boolean; rowKey: string | number }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  if (actions.length === 0) return null;

  if (compact) {
    const run = (action: RowAction) => {
      if (!action.confirm) return action.onClick();
      modal.confirm({
        title: action.confirm.title,
        content: action.confirm.description,
        okText: action.confirm.okText ?? t('common:confirm'),
        cancelText: t('common:cancel'),
        okButtonProps: okProps(action.danger),
        onOk: action.onClick,
      });
    };
    return (
      <Dropdown
        trigger={['click']}
        menu={{
          items: actions.map((a) => ({
            key: a.key,
            danger: a.danger,
            label: <span data-testid={a.testId}>{a.label}</span>,
          })),
          onClick: ({ key, domEvent }) => {
            domEvent.stopPropagation();
            const action = actions.find((a) => a.key === key);
            if (action) run(action);
          },
        }}
      >
        <Button
          type="text"
          size="small"
          icon={<MoreOutlined />}
          aria-label={t('crud:actions')}
          data-testid={`row-actions-${rowKey}`}
          onClick={(e) => e.stopPropagation()}
        />
      </Dropdown>
    );
  }

  return (
    <Space size={0} wrap={false}>
      {actions.map((a) => {
        const button = (
          <Button
            key={a.key}
            type="link"
            size="small"
            danger={a.danger}
            data-testid={a.testId}
            onClick={a.confirm ? undefined : a.onClick}
          >
            {a.label}
          </Button>
        );
        return a.confirm ? (
          <Popconfirm
            key={a.key}
            title={a.confirm.title}
            description={a.confirm.description}
            okText={a.confirm.okText ?? t('common:confirm')}
            cancelText={t('common:cancel')}
            okButtonProps={okProps(a.danger)}
            onConfirm={a.onClick}
          >
            {button}
          </Popconfirm>
        ) : (
          button
        );
      })}
    </Space>
  );
}

/**
 * The actions column of a list: pinned to the end with room for the buttons on a desktop; a
 * narrow "more" column on a phone.
 */
export function actionsColumn<T>(opts: {
  title: ReactNode;
  compact: boolean;
  width: number;
  actions: (row: T) => RowAction[];
  rowKey: (row: T) => string | number;
}): ColumnType<T> {
  return {
    title: opts.title,
    key: 'actions',
    width: opts.compact ? 56 : opts.width,
    align: opts.compact ? 'center' : undefined,
    fixed: 'end',
    render: (_: unknown, row: T) => (
      <RowActions actions={opts.actions(row)} compact={opts.compact} rowKey={opts.rowKey(row)} />
    ),
  };
}
