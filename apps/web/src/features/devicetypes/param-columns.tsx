import type { ReactNode } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Popconfirm, Select, Space, Switch, Tooltip, Typography, type FormListFieldData, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { isNumericType as isNumeric, PARAM_DATA_TYPES, PARAM_LIMITS as LIMITS } from '@iot/contract/plain';
import type { ParamField } from '@iot/contract';
import { EnumValuesInput } from './EnumValuesInput';
import type { EditorColumn } from './list-editor';
import { cellLabel } from './shared';
import type { ParamRow } from './param-rows';

interface Values {
  params: ParamRow[];
}

export interface ParamColumnsOptions {
  t: TFunction;
  canEdit: boolean;
  rowCount: number;
  /** The validation rule of one cell (checks of the whole list, see `paramProblems`). */
  rule: (index: number, field: ParamField) => FormRule;
  /** Chinese name of a row, for the delete confirmation. */
  nameOf: (index: number) => string;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}

/** Fields in a row's expansion (`more`): the translations and what is rarely changed. */
export const PARAM_MORE_FIELDS: readonly string[] = ['nameEn', 'nameEs', 'nameJa', 'groupName', 'precision'];

/**
 * Columns of the parameter table, one editable field each of a Form.List row. The row holds what
 * every parameter needs (id, name, unit, type, range or values, writable); the translations,
 * display group and decimals are in its expansion. Its fields fit 1,280 px (~950 px).
 */
export function paramColumns(o: ParamColumnsOptions): EditorColumn[] {
  const { t, rule } = o;
  const title = (field: string) => t(`devicetypes:params.columns.${field}`);
  const label = (field: string, f: FormListFieldData) => cellLabel(t, title(field), f.name);
  const dash = <Typography.Text type="secondary">{t('common:empty')}</Typography.Text>;

  const text = (field: ParamField, max: number) =>
    function Cell(f: FormListFieldData) {
      return (
        <Form.Item name={[f.name, field]} rules={[rule(f.name, field)]} validateTrigger={['onChange', 'onBlur']}>
          <Input maxLength={max} aria-label={label(field, f)} data-testid={`field-${field}`} />
        </Form.Item>
      );
    };

  /** Fields that only apply to some data types: drawn again when the row's type changes. */
  const byType = (f: FormListFieldData, render: (row: ParamRow) => ReactNode) => (
    <Form.Item
      noStyle
      shouldUpdate={(prev: Values, cur: Values) => prev.params?.[f.name]?.dataType !== cur.params?.[f.name]?.dataType}
    >
      {({ getFieldValue }) => {
        const row = getFieldValue(['params', f.name]) as ParamRow | undefined;
        return row ? render(row) : null;
      }}
    </Form.Item>
  );

  const bound = (field: 'min' | 'max', f: FormListFieldData) => (
    <Form.Item name={[f.name, field]} rules={[rule(f.name, field)]}>
      <InputNumber style={{ width: 88 }} placeholder={title(field)} aria-label={label(field, f)} data-testid={`field-${field}`} />
    </Form.Item>
  );

  const columns: EditorColumn[] = [
    { key: 'sort', title: title('sort'), width: 48, fixed: 'left', align: 'center', render: (f) => f.name + 1 },
    { key: 'semaphoreId', title: title('semaphoreId'), width: 130, fixed: 'left', phone: true, render: text('semaphoreId', LIMITS.semaphoreId) },
    { key: 'name', title: title('name'), width: 150, phone: true, render: text('name', LIMITS.name) },
    { key: 'unit', title: title('unit'), width: 80, render: text('unit', LIMITS.unit) },
    {
      key: 'dataType',
      title: title('dataType'),
      width: 124,
      phone: true,
      render: (f) => (
        <Form.Item name={[f.name, 'dataType']}>
          <Select
            style={{ width: 112 }}
            aria-label={label('dataType', f)}
            options={PARAM_DATA_TYPES.map((d) => ({ value: d, label: t(`devicetypes:dataTypes.${d}`) }))}
            data-testid="field-dataType"
          />
        </Form.Item>
      ),
    },
    {
      // Min and max of a number, the values of an enum: what bounds the parameter.
      key: 'range',
      title: title('range'),
      width: 200,
      render: (f) =>
        byType(f, (row) =>
          isNumeric(row.dataType) ? (
            <Space size={4} align="start">
              {bound('min', f)}
              {bound('max', f)}
            </Space>
          ) : row.dataType === 'enum' ? (
            <Form.Item name={[f.name, 'enumValues']} rules={[rule(f.name, 'enumValues')]}>
              <EnumValuesInput />
            </Form.Item>
          ) : (
            dash
          ),
        ),
    },
    {
      key: 'writable',
      title: title('writable'),
      width: 72,
      align: 'center',
      render: (f) => (
        <Form.Item name={[f.name, 'writable']} valuePropName="checked">
          <Switch size="small" aria-label={label('writable', f)} data-testid="field-writable" />
        </Form.Item>
      ),
    },
    { key: 'nameEn', title: title('nameEn'), width: 180, more: true, render: text('nameEn', LIMITS.name) },
    { key: 'nameEs', title: title('nameEs'), width: 180, more: true, render: text('nameEs', LIMITS.name) },
    { key: 'nameJa', title: title('nameJa'), width: 180, more: true, render: text('nameJa', LIMITS.name) },
    { key: 'groupName', title: title('groupName'), width: 140, more: true, render: text('groupName', LIMITS.groupName) },
    {
      key: 'precision',
      title: <Tooltip title={t('devicetypes:params.precisionHint')}>{title('precision')}</Tooltip>,
      width: 90,
      more: true,
      render: (f) =>
        byType(f, (row) =>
          row.dataType === 'number' ? (
            <Form.Item name={[f.name, 'precision']}>
              <InputNumber
                min={0}
                max={LIMITS.precision}
                precision={0}
                style={{ width: 70 }}
                aria-label={label('precision', f)}
                data-testid="field-precision"
              />
            </Form.Item>
          ) : (
            dash
          ),
        ),
    },
  ];
  if (!o.canEdit) return columns;
  columns.push({
    key: 'actions',
    title: t('devicetypes:actions'),
    fixed: 'right',
    width: 108,
    // `f.name` is the row's index in the whole list (the render index counts within the page).
    render: (f) => (
      <Space size={0}>
        {/* Native titles: a popup tooltip would stay behind when its row moves away. */}
        <Button
          type="text"
          size="small"
          icon={<ArrowUpOutlined />}
          disabled={f.name === 0}
          onClick={() => o.move(f.name, f.name - 1)}
          title={t('devicetypes:moveUp')}
          aria-label={t('devicetypes:moveUp')}
          data-testid="btn-up"
        />
        <Button
          type="text"
          size="small"
          icon={<ArrowDownOutlined />}
          disabled={f.name === o.rowCount - 1}
          onClick={() => o.move(f.name, f.name + 1)}
          title={t('devicetypes:moveDown')}
          aria-label={t('devicetypes:moveDown')}
          data-testid="btn-down"
        />
        <Popconfirm
          title={t('devicetypes:params.deleteConfirm', { name: o.nameOf(f.name) || t('devicetypes:params.newRow') })}
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
      </Space>
    ),
  });
  return columns;
}
