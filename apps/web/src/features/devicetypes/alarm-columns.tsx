import type { ReactNode } from 'react';
import { DeleteOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tooltip,
  type FormListFieldData,
  type FormRule,
} from 'antd';
import type { TFunction } from 'i18next';
import { ALARM_LIMITS, COMPARISONS_BY_TYPE, isNumericType, isRangeComparison } from '@iot/contract/plain';
import type { AlarmComparison, AlarmRuleField, ParamDto } from '@iot/contract';
import { AlarmLevelTag } from '../../components/AlarmLevel';
import type { RuleRow } from './alarm-rows';
import type { EditorColumn } from './list-editor';
import { ThresholdInput } from './ThresholdInput';
import { cellLabel } from './shared';

interface Values {
  rules: RuleRow[];
}

const SYMBOLS: Partial<Record<AlarmComparison, string>> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', ne: '≠' };

/** How a comparison is shown: its symbol, or its name (ranges). */
export const comparisonLabel = (t: TFunction, c: AlarmComparison) => SYMBOLS[c] ?? t(`devicetypes:comparisons.${c}`);

export interface AlarmColumnsOptions {
  t: TFunction;
  canEdit: boolean;
  /** The type's parameters by semaphore id. */
  params: ReadonlyMap<string, ParamDto>;
  /** Options of the parameter picker (semaphore id and localized name). */
  paramOptions: { value: string; label: string }[];
  /** The validation rule of one cell (checks of the whole list, see `ruleProblems`). */
  rule: (index: number, field: AlarmRuleField) => FormRule;
  remove: (index: number) => void;
}

/** Fields in a row's expansion (`more`): the message's translations and the hold time. */
export const ALARM_MORE_FIELDS: readonly AlarmRuleField[] = ['messageEn', 'messageEs', 'messageJa', 'holdSeconds'];

/**
 * Columns of the alarm rule table, one editable field each of a Form.List row: the row holds the
 * rule (parameter, comparison, thresholds, level, message, enabled), its expansion the message's
 * translations and the hold time. The row fits 1,280 px (~960 px).
 */
export function alarmColumns(o: AlarmColumnsOptions): EditorColumn[] {
  const { t, rule } = o;
  const title = (field: string) => t(`devicetypes:alarms.columns.${field}`);
  const label = (field: string, f: FormListFieldData) => cellLabel(t, title(field), f.name);

  /** Re-renders a cell when its row's parameter or comparison changes. */
  const byRow = (f: FormListFieldData, render: (row: RuleRow, param: ParamDto | undefined) => ReactNode) => (
    <Form.Item
      noStyle
      shouldUpdate={(prev: Values, cur: Values) => {
        const a = prev.rules?.[f.name];
        const b = cur.rules?.[f.name];
        return a?.semaphoreId !== b?.semaphoreId || a?.comparison !== b?.comparison;
      }}
    >
      {({ getFieldValue }) => {
        const row = getFieldValue(['rules', f.name]) as RuleRow | undefined;
        return row ? render(row, row.semaphoreId ? o.params.get(row.semaphoreId) : undefined) : null;
      }}
    </Form.Item>
  );

  const message = (field: 'message' | 'messageEn' | 'messageEs' | 'messageJa', width: number, more: boolean): EditorColumn => ({
    title: title(field),
    key: field,
    width,
    more,
    render: (f: FormListFieldData) => (
      <Form.Item name={[f.name, field]} rules={[rule(f.name, field)]} validateTrigger={['onChange', 'onBlur']}>
        <Input maxLength={ALARM_LIMITS.message} aria-label={label(field, f)} data-testid={`field-${field}`} />
      </Form.Item>
    ),
  });

  const columns: EditorColumn[] = [
    { title: '#', key: 'sort', width: 40, fixed: 'left', align: 'center', render: (f) => f.name + 1 },
    {
      title: title('semaphoreId'),
      key: 'semaphoreId',
      fixed: 'left',
      width: 190,
      phone: true,
      render: (f) => (
        <Form.Item name={[f.name, 'semaphoreId']} rules={[rule(f.name, 'semaphoreId')]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 174 }}
            options={o.paramOptions}
            placeholder={t('devicetypes:alarms.pickParam')}
            aria-label={label('semaphoreId', f)}
            popupMatchSelectWidth={false}
            data-testid="field-semaphoreId"
          />
        </Form.Item>
      ),
    },
    {
      title: title('comparison'),
      key: 'comparison',
      width: 130,
      phone: true,
      render: (f) =>
        byRow(f, (_row, p) => (
          <Form.Item name={[f.name, 'comparison']} rules={[rule(f.name, 'comparison')]}>
            <Select
              style={{ width: 118 }}
              aria-label={label('comparison', f)}
              options={(p ? COMPARISONS_BY_TYPE[p.dataType] : COMPARISONS_BY_TYPE.number).map((c) => ({
                value: c,
                label: comparisonLabel(t, c),
              }))}
              data-testid="field-comparison"
            />
          </Form.Item>
        )),
    },
    {
      // A range's second threshold under the first.
      title: title('threshold'),
      key: 'threshold',
      width: 152,
      phone: true,
      render: (f) =>
        byRow(f, (row, p) => (
          <Space orientation="vertical" size={4}>
            <Form.Item name={[f.name, 'threshold']} rules={[rule(f.name, 'threshold')]}>
              <ThresholdInput param={p} label={label('threshold', f)} />
            </Form.Item>
            {p && isNumericType(p.dataType) && isRangeComparison(row.comparison) && (
              <Form.Item name={[f.name, 'threshold2']} rules={[rule(f.name, 'threshold2')]}>
                <ThresholdInput param={p} label={label('threshold2', f)} testId="field-threshold2" />
              </Form.Item>
            )}
          </Space>
        )),
    },
    {
      title: title('level'),
      key: 'level',
      width: 130,
      phone: true,
      render: (f) => (
        <Form.Item name={[f.name, 'level']} rules={[rule(f.name, 'level')]}>
          <Select
            style={{ width: 118 }}
            aria-label={label('level', f)}
            // Most severe first, as in every level picker.
            options={[...ALARM_LIMITS.levels].reverse().map((level) => ({
              value: level,
              label: <AlarmLevelTag level={level} style={{ marginInlineEnd: 0 }} />,
            }))}
            data-testid="field-level"
          />
        </Form.Item>
      ),
    },
    message('message', 150, false),
    {
      title: (
        <Space size={4}>
          {title('holdSeconds')}
          <Tooltip title={t('devicetypes:alarms.holdHint')}>
            <QuestionCircleOutlined />
          </Tooltip>
        </Space>
      ),
      key: 'holdSeconds',
      width: 130,
      more: true,
      render: (f) => (
        <Form.Item name={[f.name, 'holdSeconds']} rules={[rule(f.name, 'holdSeconds')]}>
          <InputNumber
            min={0}
            max={ALARM_LIMITS.holdSeconds}
            precision={0}
            style={{ width: 116 }}
            suffix={t('devicetypes:alarms.seconds')}
            aria-label={label('holdSeconds', f)}
            data-testid="field-holdSeconds"
          />
        </Form.Item>
      ),
    },
    {
      title: title('enabled'),
      key: 'enabled',
      width: 70,
      align: 'center',
      render: (f) => (
        <Form.Item name={[f.name, 'enabled']} valuePropName="checked">
          <Switch size="small" aria-label={label('enabled', f)} data-testid="field-enabled" />
        </Form.Item>
      ),
    },
    message('messageEn', 200, true),
    message('messageEs', 200, true),
    message('messageJa', 200, true),
  ];
  if (!o.canEdit) return columns;
  columns.push({
    title: t('devicetypes:actions'),
    key: 'actions',
    fixed: 'right',
    width: 56,
    align: 'center',
    render: (f) => (
      <Popconfirm
        title={t('devicetypes:alarms.deleteConfirm')}
        okText={t('common:confirm')}
        cancelText={t('common:cancel')}
        okButtonProps={{ danger: true, 'data-testid': 'btn-confirm-delete' }}
        onConfirm={() => o.remove(f.name)}
      >
        <Button
          type="text"
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('devicetypes:deleteRow')}
          data-testid="btn-delete-row"
        />
      </Popconfirm>
    ),
  });
  return columns;
}
