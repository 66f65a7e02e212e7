import { useState } from 'react';
import { Alert, Button, Modal, Progress, Radio, Space, Table, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { cardRoutes, rentalRoutes, storeRoutes } from '@iot/contract/plain';
import type { ImportError, ImportMode, ImportReport } from '@iot/contract';
import { ApiError, describeError, refusalText } from '../lib/http';
import { currentLanguage } from '../lib/i18n';
import { downloadFile, uploadImport } from '../lib/transfer';

interface Props {
  open: boolean;
  onClose: () => void;
  /** The sheet's endpoints: its template and its import . */
  endpoints: {
    template: typeof cardRoutes.importTemplate | typeof storeRoutes.importTemplate | typeof rentalRoutes.importTemplate;
    import: Omit<typeof cardRoutes.import | typeof storeRoutes.import | typeof rentalRoutes.import, 'permission' | 'audit'>;
  };
  /** The template's file name. */
  templateName: string;
  /** The namespace holding `import.*` texts and `fields.<column>` names (`cards`, `stores`, `rentals`). */
  ns: string;
  /** After rows were written: refresh what shows them. */
  onImported: () => void;
  testId: string;
}

/**
 * A sheet import from .xlsx/.xls (§5: only those formats; a file is required): the template, the
 * mode (valid rows or nothing), and the report with each refused row's column and reason. The
 * SIM card, store and rental imports.
 */
export function SheetImportDialog({ open, onClose, endpoints, templateName, ns, onImported, testId }: Props) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('valid');
  const [busy, setBusy] = useState(false);
  /** The upload's progress (the server checks and writes the rows after it reaches 100). */
  const [percent, setPercent] = useState<number | null>(null);
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
    setPercent(0);
    try {
      const res = await uploadImport(file, { mode, dryRun: false, onProgress: setPercent, endpoint: endpoints.import }).promise;
      setReport(res);
      if (res.imported > 0) onImported();
    } catch (err) {
      if (err instanceof ApiError) setProblem(describeError(err));
    } finally {
      setBusy(false);
      setPercent(null);
    }
  };

  const close = () => {
    setFile(null);
    setReport(null);
    setProblem(null);
    onClose();
  };

  return (
    <Modal open={open} title={t(`${ns}:import.title`)} onCancel={close} width={720} footer={null} destroyOnHidden data-testid={testId}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadFile(endpoints.template, { lang: currentLanguage() }, templateName).catch(() => undefined)}>
          {t(`${ns}:import.template`)}
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
          <p>{t(`${ns}:import.drop`)}</p>
        </Upload.Dragger>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
          <Radio value="valid">{t(`${ns}:import.modeValid`)}</Radio>
          <Radio value="all">{t(`${ns}:import.modeAll`)}</Radio>
        </Radio.Group>
        {percent !== null && <Progress aria-label={t('devices:import.progress')} percent={percent} status="active" data-testid={`${testId}-progress`} />}
        {problem && <Alert type="error" showIcon title={problem} />}
        {report && (
          <Alert
            type={report.errors.length ? 'warning' : 'success'}
            showIcon
            title={t(`${ns}:import.result`, { imported: report.imported, total: report.total, errors: report.errors.length })}
          />
        )}
        {report && report.errors.length > 0 && (
          <Table<ImportError>
            size="small"
            rowKey={(e) => `${e.row}-${e.column}-${e.reason}`}
            pagination={{ pageSize: 10 }}
            dataSource={report.errors}
            columns={[
              { title: t(`${ns}:import.row`), dataIndex: 'row', width: 80 },
              { title: t(`${ns}:import.column`), dataIndex: 'column', width: 160, render: (k: string) => (k ? t(`${ns}:fields.${k}`, { defaultValue: k }) : '') },
              { title: t(`${ns}:import.reason`), key: 'reason', render: (_, e) => refusalText(e) ?? e.message },
            ]}
          />
        )}
        <Button type="primary" loading={busy} onClick={() => void run()} data-testid={`${testId}-run`}>
          {t(`${ns}:import.run`)}
        </Button>
      </Space>
    </Modal>
  );
}
