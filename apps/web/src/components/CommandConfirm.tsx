import { Descriptions, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** One value a command writes: the parameter's name, what the device reports now and the new value, as the operator reads them. */
export interface CommandChange {
  key: string;
  parameter: string;
  current: string;
  next: string;
}

/** A device a command goes to, as the operator knows it. */
export interface CommandTarget {
  name: string;
  sn: string;
}

/**
 * Asks before a command writes to devices: it names the device(s), and for each parameter its
 * current and new value, so a switch is never turned off by a stray click. Built for one device
 * (set parameters) and several (bulk commands): `targets` lists them all.
 */
export function CommandConfirm({
  open,
  targets,
  changes,
  sending,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  targets: CommandTarget[];
  changes: CommandChange[];
  sending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const one = targets.length === 1 ? targets[0] : undefined;
  return (
    <Modal
      open={open}
      title={one ? t('commands:confirm.titleOne', { name: one.name }) : t('commands:confirm.titleMany', { count: targets.length })}
      okText={t('commands:confirm.send')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: sending, ...({ 'data-testid': 'command-confirm-ok' } as Record<string, string>) }}
      cancelButtonProps={{ ...({ 'data-testid': 'command-confirm-cancel' } as Record<string, string>) }}
      onOk={onConfirm}
      onCancel={onCancel}
      destroyOnHidden
      width={620}
    >
      <div data-testid="command-confirm">
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('commands:confirm.device', { count: targets.length })}>
          <span data-testid="command-confirm-devices">
            {targets
              .slice(0, 5)
              .map((d) => `${d.name} (${d.sn})`)
              .join(', ')}
            {targets.length > 5 && ` ${t('commands:confirm.andMore', { count: targets.length - 5 })}`}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Table<CommandChange>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={changes}
        data-testid="command-confirm-changes"
        columns={[
          { title: t('commands:confirm.parameter'), dataIndex: 'parameter' },
          { title: t('commands:confirm.current'), dataIndex: 'current' },
          {
            title: t('commands:confirm.next'),
            dataIndex: 'next',
            render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('commands:confirm.note')}
      </Typography.Paragraph>
      </div>
    </Modal>
  );
}
