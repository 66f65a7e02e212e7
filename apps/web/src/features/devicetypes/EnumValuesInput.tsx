import { useState, type HTMLAttributes } from 'react';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Table, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';
import { enumLabel } from '../../lib/localize';
import { enumValueProblems, PARAM_LIMITS as LIMITS } from '@iot/contract/plain';
import { problemRule } from './list-editor';
import type { EnumOptionRow } from './param-rows';

interface Props {
  value?: EnumOptionRow[];
  onChange?: (value: EnumOptionRow[]) => void;
  disabled?: boolean;
  id?: string;
  /** Shows the button as in error (the cell's problem is drawn under it by the table). */
  invalid?: boolean;
  'aria-describedby'?: string;
}

const EMPTY_OPTION: EnumOptionRow = { value: '', label: '', labelEn: '', labelEs: '', labelJa: '' };

/**
 * The enum values of one parameter: a summary button in the table cell and a dialog that edits
 * the values (value + label in four languages). Changes reach the row only on OK.
 */
export function EnumValuesInput({ value = [], onChange, disabled, id, invalid, 'aria-describedby': describedBy }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const lang = currentLanguage();
  const summary = value.map((e) => `${e.value} = ${enumLabel(e, lang)}`).join('\n');

  return (
    <>
      <Tooltip title={summary ? <span style={{ whiteSpace: 'pre-line' }}>{summary}</span> : null}>
        <Button
          id={id}
          size="small"
          danger={invalid}
          aria-describedby={describedBy}
          onClick={() => setOpen(true)}
          disabled={false}
          data-testid="field-enumValues"
        >
          {value.length > 0
            ? t('devicetypes:params.enum.count', { count: value.length })
            : t('devicetypes:params.enum.none')}
        </Button>
      </Tooltip>
      {open && (
        <EnumDialog
          initial={value}
          readOnly={!!disabled}
          onCancel={() => setOpen(false)}
          onOk={(values) => {
            onChange?.(values);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function EnumDialog({
  initial,
  readOnly,
  onOk,
  onCancel,
}: {
  initial: EnumOptionRow[];
  readOnly: boolean;
  onOk: (values: EnumOptionRow[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ values: EnumOptionRow[] }>();

  const valueRule = (index: number, field: keyof EnumOptionRow) =>
    problemRule(t, () => enumValueProblems((form.getFieldValue('values') ?? []) as EnumOptionRow[]), index, field);

  const submit = async () => {
    try {
      const { values = [] } = await form.validateFields();
      onOk(
        values.map((v) => ({
          value: v.value.trim(),
          label: v.label.trim(),
          labelEn: (v.labelEn ?? '').trim(),
          labelEs: (v.labelEs ?? '').trim(),
          labelJa: (v.labelJa ?? '').trim(),
        })),
      );
    } catch {
      // the dialog shows the field errors
    }
  };

  return (
    <Modal
      open
      width={920}
      title={t('devicetypes:params.enum.title')}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      onOk={readOnly ? onCancel : submit}
      onCancel={onCancel}
      okButtonProps={{ 'data-testid': 'btn-enum-ok' }}
      destroyOnHidden
    >
      <Form form={form} initialValues={{ values: initial }} disabled={readOnly} data-testid="enum-editor">
        <Form.List name="values">
          {(fields, { add, remove }) => {
            const input = (field: keyof EnumOptionRow, max: number) => {
              const Cell = (_: unknown, row: { name: number }) => (
                <Form.Item
                  name={[row.name, field]}
                  style={{ marginBottom: 0 }}
                  rules={[valueRule(row.name, field)]}
                  validateTrigger={['onChange', 'onBlur']}
                >
                  <Input maxLength={max} data-testid={`field-${field}`} />
                </Form.Item>
              );
              return Cell;
            };
            const columns: TableColumnsType<{ name: number; key: number }> = [
              { title: t('devicetypes:params.enum.value'), key: 'value', width: 120, render: input('value', LIMITS.enumValue) },
              { title: t('devicetypes:params.enum.label'), key: 'label', render: input('label', LIMITS.enumLabel) },
              { title: t('devicetypes:params.enum.labelEn'), key: 'labelEn', render: input('labelEn', LIMITS.enumLabel) },
              { title: t('devicetypes:params.enum.labelEs'), key: 'labelEs', render: input('labelEs', LIMITS.enumLabel) },
              { title: t('devicetypes:params.enum.labelJa'), key: 'labelJa', render: input('labelJa', LIMITS.enumLabel) },
            ];
            if (!readOnly) {
              columns.push({
                key: 'actions',
                width: 48,
                render: (_, row) => (
                  <Tooltip title={t('devicetypes:params.enum.remove')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(row.name)}
                      aria-label={t('devicetypes:params.enum.remove')}
                      data-testid="btn-remove-value"
                    />
                  </Tooltip>
                ),
              });
            }
            return (
              <>
                <Table
                  size="small"
                  rowKey="key"
                  pagination={false}
                  dataSource={fields}
                  columns={columns}
                  locale={{ emptyText: t('devicetypes:params.enum.empty') }}
                  onRow={(_, index) => ({ 'data-testid': `enum-row-${index}` }) as HTMLAttributes<HTMLElement>}
                />
                {!readOnly && (
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    style={{ marginTop: 12 }}
                    disabled={fields.length >= LIMITS.enumCount}
                    onClick={() => add({ ...EMPTY_OPTION, value: String(nextValue(form.getFieldValue('values'))) })}
                    data-testid="btn-add-value"
                  >
                    {t('devicetypes:params.enum.add')}
                  </Button>
                )}
              </>
            );
          }}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** Suggests the next integer value (device enums are usually 0, 1, 2 …). */
function nextValue(values: EnumOptionRow[] | undefined): number {
  const numbers = (values ?? []).map((v) => Number(v.value)).filter((n) => Number.isInteger(n));
  return numbers.length > 0 ? Math.max(...numbers) + 1 : 0;
}
