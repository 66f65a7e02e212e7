import { useState } from 'react';
import { Alert, Button, Modal, Radio, Space, Table, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { cardRoutes } from '@iot/contract/plain';
import type { ImportError, ImportMode, ImportReport } from '@iot/contract';
import { ApiError, describeError, refusalText } from '../../lib/http';
import { currentLanguage } from '../../lib/i18n';
import { downloadFile, uploadImport } from '../../lib/transfer';
import { useInvalidateCards } from './api';

/** SIM card import from .xlsx/.xls (§5: only those formats; a file is required). */
export function CardImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateCards();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('valid');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const run = async () => {
    if (!file) {
      setProblem(t('refusals:fileRequired'));
      return;
    }
    if (!/\.(xlsx|xls)$/i.test(file.name)) {
      setProblem(t('refusals:importFormat'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const res = await uploadImport(file, { mode, dryRun: false, onProgress: () => undefined, endpoint: cardRoutes.import }).promise;
      setReport(res);
      if (res.imported > 0) invalidate();
    } catch (err) {
      if (err instanceof ApiError) setProblem(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setFile(null);
    setReport(null);
    setProblem(null);
    onClose();
  };

  return (
    <Modal open={open} title={t('cards:import.title')} onCancel={close} width={720} footer={null} destroyOnHidden data-testid="card-import">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadFile(cardRoutes.importTemplate, { lang: currentLanguage() }, 'sim-cards-template.xlsx').catch(() => undefined)}>
          {t('cards:import.template')}
        </Button>
        <Upload.Dragger
          accept=".xlsx,.xls"
          maxCount={1}
          beforeUpload={(f) => {
            setFile(f);
            setReport(null);
            return false;
          }}
          onRemove={() => setFile(null)}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{t('cards:import.drop')}</p>
        </Upload.Dragger>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
          <Radio value="valid">{t('cards:import.modeValid')}</Radio>
          <Radio value="all">{t('cards:import.modeAll')}</Radio>
        </Radio.Group>
        {problem && <Alert type="error" showIcon title={problem} />}
        {report && (
          <Alert
            type={report.errors.length ? 'warning' : 'success'}
            showIcon
            title={t('cards:import.result', { imported: report.imported, total: report.total, errors: report.errors.length })}
          />
        )}
        {report && report.errors.length > 0 && (
          <Table<ImportError>
            size="small"
            rowKey={(e) => `${e.row}-${e.column}-${e.reason}`}
            pagination={{ pageSize: 10 }}
            dataSource={report.errors}
            columns={[
              { title: t('cards:import.row'), dataIndex: 'row', width: 80 },
              { title: t('cards:import.column'), dataIndex: 'column', width: 160, render: (k: string) => (k ? t(`cards:fields.${k}`, { defaultValue: k }) : '') },
              { title: t('cards:import.reason'), key: 'reason', render: (_, e) => refusalText(e) ?? e.message },
            ]}
          />
        )}
        <Button type="primary" loading={busy} onClick={() => void run()} data-testid="card-import-run">
          {t('cards:import.run')}
        </Button>
      </Space>
    </Modal>
  );
}
