import { Alert, Button, Modal, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ExternalAdded } from '@iot/contract';

type Credential = ExternalAdded['items'][number];

/** One cell of the CSV: quoted when it holds a separator, a quote or a line break. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function saveCsv(items: Credential[]) {
  const text = ['identifier,credential', ...items.map((c) => `${cell(c.identifier)},${cell(c.secret)}`)].join('\r\n');
  const href = URL.createObjectURL(new Blob([`\uFEFF${text}\r\n`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = href;
  a.download = `external-credentials-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * The credentials of the devices just added, shown this once (the server keeps only their
 * hashes) and offered as a CSV file; the dialog closes only by its button.
 */
export function CredentialsModal({ items, onClose }: { items: Credential[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!items}
      title={t('external:credentials.title', { count: items?.length ?? 0 })}
      onCancel={onClose}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      width={720}
      footer={[
        <Button key="csv" icon={<DownloadOutlined />} onClick={() => items && saveCsv(items)} data-testid="credentials-csv">
          {t('external:credentials.csv')}
        </Button>,
        <Button key="done" type="primary" onClick={onClose} data-testid="credentials-close">
          {t('external:credentials.done')}
        </Button>,
      ]}
    >
      <Alert type="warning" showIcon title={t('external:credentials.onceNote')} style={{ marginBottom: 16 }} />
      <Table<Credential>
        size="small"
        rowKey="id"
        pagination={items && items.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        dataSource={items ?? []}
        data-testid="credentials-table"
        columns={[
          { title: t('external:fields.identifier'), dataIndex: 'identifier', key: 'identifier', width: 220 },
          {
            title: t('external:credentials.credential'),
            dataIndex: 'secret',
            key: 'secret',
            render: (v: string) => (
              <Typography.Text code copyable={{ text: v, tooltips: [t('external:credentials.copy'), t('external:credentials.copied')] }} style={{ wordBreak: 'break-all' }}>
                {v}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}
