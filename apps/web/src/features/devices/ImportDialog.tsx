import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Modal, Progress, Radio, Space, Statistic, Steps, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, deviceRoutes } from '@iot/contract/plain';
import type { ImportError, ImportMode, ImportReport } from '@iot/contract';
import { ApiError, reportError } from '../../lib/http';
import { currentLanguage } from '../../lib/i18n';
import { columnLabel, importFileProblem, importReason, isSpreadsheet } from './sheet-text';
import { downloadFile, uploadImport, type UploadHandle } from '../../lib/transfer';

/**
 * §4 bulk upload states: uploading → complete (the server has checked the rows) → ended (the
 * rows are written). `checking` is the wait for the server's answer after the upload itself.
 */
type Phase = 'idle' | 'uploading' | 'checking' | 'complete' | 'ended';

interface Props {
  open: boolean;
  onClose: () => void;
  /** After rows were written: refresh the list. */
  onImported: () => void;
}

export function ImportDialog({ open, onClose, onImported }: Props) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('valid');
  const [phase, setPhase] = useState<Phase>('idle');
  const [percent, setPercent] = useState(0);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const upload = useRef<UploadHandle | null>(null);

  const reset = () => {
    setPhase('idle');
    setPercent(0);
    setReport(null);
    setProblem(null);
  };

  useEffect(() => {
    if (!open) return;
    setFileList([]);
    setFile(null);
    setFileError(null);
    setAttempted(false);
    setMode('valid');
    reset();
  }, [open]);

  useEffect(() => () => upload.current?.abort(), []);

  const busy = phase === 'uploading' || phase === 'checking';

  const run = async (dryRun: boolean) => {
    setAttempted(true);
    if (!file || fileError) return;
    reset();
    setPhase('uploading');
    const handle = uploadImport(file, {
      mode,
      dryRun,
      onProgress: (p) => {
        setPercent(p);
        if (p >= 100) setPhase('checking');
      },
    });
    upload.current = handle;
    try {
      const result = await handle.promise;
      setPercent(100);
      setReport(result);
      setPhase(result.dryRun ? 'complete' : 'ended');
      if (!result.dryRun && result.imported > 0) onImported();
    } catch (err) {
      setPhase('idle');
      if (err instanceof ApiError && err.code === 40000) {
        setProblem(importFileProblem(err, t, lang));
      } else if (err instanceof ApiError) reportError(err);
    } finally {
      upload.current = null;
    }
  };

  const close = () => {
    upload.current?.abort();
    onClose();
  };

  const stepIndex = phase === 'ended' ? 2 : phase === 'complete' || phase === 'checking' ? 1 : 0;
  const steps = [
    { title: t('devices:import.steps.uploading') },
    { title: t('devices:import.steps.complete') },
    { title: t('devices:import.steps.ended') },
  ];

  const missingFile = attempted && !file;
  const errorColumns = [
    { title: t('devices:import.report.row'), dataIndex: 'row', width: 80 },
    {
      title: t('devices:import.report.column'),
      dataIndex: 'column',
      width: 200,
      render: (key: string) => (key ? columnLabel(key, lang) : t('devices:import.report.wholeRow')),
    },
    { title: t('devices:import.report.reason'), dataIndex: 'reason', render: (_: unknown, e: ImportError) => importReason(e) },
  ];

  return (
    <Modal
      open={open}
      title={t('devices:import.title')}
      onCancel={close}
      width={760}
      mask={{ closable: !busy }}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('devices:import.close')}</Button>
          <Button onClick={() => void run(true)} disabled={busy || phase === 'ended'} data-testid="import-check">
            {t('devices:import.check')}
          </Button>
          <Button
            type="primary"
            onClick={() => void run(false)}
            loading={busy}
            disabled={phase === 'ended'}
            data-testid="import-start"
          >
            {t('devices:import.start')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <div>
          <Typography.Text type="secondary">{t('devices:import.templates')}</Typography.Text>
          <Space wrap style={{ marginLeft: 8 }}>
            {LANGUAGES.map((l) => (
              <Button
                key={l}
                size="small"
                icon={<DownloadOutlined />}
                data-testid={`import-template-${l}`}
                onClick={() =>
                  void downloadFile(deviceRoutes.importTemplate, { lang: l }, `devices-template-${l}.xlsx`).catch(() => undefined)
                }
              >
                {t(`devices:import.templateLangs.${l}`)}
              </Button>
            ))}
          </Space>
        </div>

        <Form layout="vertical" component="div">
          <Form.Item
            label={t('devices:import.file')}
            required
            validateStatus={missingFile || fileError ? 'error' : undefined}
            help={fileError ?? (missingFile ? t('devices:import.fileRequired') : undefined)}
            style={{ marginBottom: 16 }}
          >
            <div data-testid="import-dragger">
              <Upload.Dragger
                accept={{ format: '.xlsx,.xls', filter: 'native' }}
                multiple={false}
                maxCount={1}
                fileList={fileList}
                disabled={busy}
                beforeUpload={(f) => {
                  const ok = isSpreadsheet(f.name);
                  const message = ok ? null : t('devices:import.formatError');
                  setFileList([{ uid: f.uid, name: f.name, size: f.size, status: ok ? 'done' : 'error', response: message }]);
                  setFile(ok ? f : null);
                  setFileError(message);
                  reset();
                  return false;
                }}
                onRemove={() => {
                  setFileList([]);
                  setFile(null);
                  setFileError(null);
                  reset();
                  return true;
                }}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">{t('devices:import.dragText')}</p>
                <p className="ant-upload-hint">{t('devices:import.dragHint')}</p>
              </Upload.Dragger>
            </div>
          </Form.Item>
          <Form.Item label={t('devices:import.mode')} style={{ marginBottom: 0 }}>
            <Radio.Group
              value={mode}
              disabled={busy}
              onChange={(e) => {
                setMode(e.target.value as ImportMode);
                reset();
              }}
              data-testid="import-mode"
            >
              <Radio value="all" data-testid="import-mode-all">
                {t('devices:import.modes.all')}
              </Radio>
              <Radio value="valid" data-testid="import-mode-valid">
                {t('devices:import.modes.valid')}
              </Radio>
            </Radio.Group>
          </Form.Item>
        </Form>

        {phase !== 'idle' && (
          <div data-testid="import-progress">
            <Steps
              size="small"
              current={stepIndex}
              status={phase === 'ended' ? 'finish' : 'process'}
              items={steps} style={{ marginBottom: 12 }} />
            <Progress
              aria-label={t('devices:import.progress')}
              percent={percent}
              status={phase === 'uploading' || phase === 'checking' ? 'active' : 'success'}
              format={(p) => (phase === 'checking' ? t('devices:import.checking') : `${p ?? 0}%`)}
            />
          </div>
        )}

        {problem && <Alert type="error" showIcon title={problem} data-testid="import-problem" />}

        {report && <ReportSummary report={report} />}

        {report && report.errors.length > 0 && (
          <Table<ImportError>
            size="small"
            rowKey={(e) => `${e.row}-${e.column}-${e.reason}`}
            columns={errorColumns}
            dataSource={report.errors}
            pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
            data-testid="import-errors"
          />
        )}
      </Space>
    </Modal>
  );
}

function ReportSummary({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  const invalid = report.total - report.valid;
  let type: 'success' | 'info' | 'warning' = 'success';
  let text: string;
  if (report.dryRun) {
    type = invalid > 0 ? 'warning' : 'success';
    text = invalid > 0 ? t('devices:import.result.checkedWithErrors', { count: invalid }) : t('devices:import.result.checkedOk');
  } else if (report.imported === 0 && report.mode === 'all' && invalid > 0) {
    type = 'warning';
    text = t('devices:import.result.nothingAll', { count: invalid });
  } else if (report.imported === 0) {
    type = 'info';
    text = t('devices:import.result.nothing');
  } else if (invalid > 0) {
    type = 'warning';
    text = t('devices:import.result.importedSkipped', { count: report.imported, skipped: invalid });
  } else {
    text = t('devices:import.result.imported', { count: report.imported });
  }
  return (
    <div data-testid="import-report">
      <Space size="large" wrap style={{ marginBottom: 8 }}>
        <Statistic title={t('devices:import.report.total')} value={report.total} />
        <Statistic title={t('devices:import.report.valid')} value={report.valid} />
        <Statistic title={t('devices:import.report.invalid')} value={invalid} />
        <Statistic title={t('devices:import.report.imported')} value={report.imported} />
      </Space>
      <Alert type={type} showIcon title={text} />
    </div>
  );
}
