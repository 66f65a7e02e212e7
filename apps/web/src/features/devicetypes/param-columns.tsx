import type { ReactNode } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
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
  Typography,
  type FormListFieldData,
  type FormRule,
  type TableColumnsType,
} from 'antd';
import type { TFunction } from 'i18next';
import { isNumericType as isNumeric, PARAM_DATA_TYPES, PARAM_LIMITS as LIMITS } from '@iot/contract/plain';
import type { ParamField } from '@iot/contract';
import { EnumValuesInput } from './EnumValuesInput';
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

/** Columns of the parameter table: one editable cell per field of a Form.List row. */
export function paramColumns(o: ParamColumnsOptions): TableColumnsType<FormListFieldData> {
  const { t, rule } = o;
  const title = (field: string) => t(`devicetypes:params.columns.${field}`);
  const label = (field: string, f: FormListFieldData) => cellLabel(t, title(field), f.name);

  const text = (field: ParamField, max: number) =>
    function Cell(_: unknown, f: FormListFieldData) {
      return (
        <Form.Item name={[f.name, field]} rules={[rule(f.name, field)]} validateTrigger={['onChange', 'onBlur']}>
          <Input maxLength={max} aria-label={label(field, f)} data-testid={`field-${field}`} />
        </Form.Item>
      );
    };

  /** A cell that only applies to some data types; other rows show a dash. */
  const when = (f: FormListFieldData, applies: (row: ParamRow) => boolean, node: ReactNode) => (
    <Form.Item
      noStyle
      shouldUpdate={(prev: Values, cur: Values) => prev.params?.[f.name]?.dataType !== cur.params?.[f.name]?.dataType}
    >
      {({ getFieldValue }) => {
        const row = getFieldValue(['params', f.name]) as ParamRow | undefined;
        return row && applies(row) ? node : <Typography.Text type="secondary">{t('common:empty')}</Typography.Text>;
      }}
    </Form.Item>
  );

  const bound = (field: 'min' | 'max') =>
    function Cell(_: unknown, f: FormListFieldData) {
      return when(
        f,
        (r) => isNumeric(r.dataType),
        <Form.Item name={[f.name, field]} rules={[rule(f.name, field)]}>
          <InputNumber style={{ width: 110 }} aria-label={label(field, f)} data-testid={`field-${field}`} />
        </Form.Item>,
      );
    };

  const columns: TableColumnsType<FormListFieldData> = [
    { title: title('sort'), key: 'sort', width: 56, fixed: 'left', align: 'center', render: (_, f) => f.name + 1 },
    { title: title('semaphoreId'), key: 'semaphoreId', fixed: 'left', width: 150, render: text('semaphoreId', LIMITS.semaphoreId) },
    { title: title('name'), key: 'name', width: 150, render: text('name', LIMITS.name) },
    { title: title('nameEn'), key: 'nameEn', width: 160, render: text('nameEn', LIMITS.name) },
    { title: title('nameEs'), key: 'nameEs', width: 160, render: text('nameEs', LIMITS.name) },
    { title: title('nameJa'), key: 'nameJa', width: 150, render: text('nameJa', LIMITS.name) },
    { title: title('unit'), key: 'unit', width: 90, render: text('unit', LIMITS.unit) },
    { title: title('groupName'), key: 'groupName', width: 120, render: text('groupName', LIMITS.groupName) },
    {
      title: title('dataType'),
      key: 'dataType',
      width: 130,
      render: (_, f) => (
        <Form.Item name={[f.name, 'dataType']}>
          <Select
            style={{ width: 118 }}
            aria-label={label('dataType', f)}
            options={PARAM_DATA_TYPES.map((d) => ({ value: d, label: t(`devicetypes:dataTypes.${d}`) }))}
            data-testid="field-dataType"
          />
        </Form.Item>
      ),
    },
    {
      title: <Tooltip title={t('devicetypes:params.precisionHint')}>{title('precision')}</Tooltip>,
      key: 'precision',
      width: 90,
      render: (_, f) =>
        when(
          f,
          (r) => r.dataType === 'number',
          <Form.Item name={[f.name, 'precision']}>
            <InputNumber
              min={0}
              max={LIMITS.precision}
              precision={0}
              style={{ width: 70 }}
              aria-label={label('precision', f)}
              data-testid="field-precision"
            />
          </Form.Item>,
        ),
    },
    { title: title('min'), key: 'min', width: 130, render: bound('min') },
    { title: title('max'), key: 'max', width: 130, render: bound('max') },
    {
      title: title('enumValues'),
      key: 'enumValues',
      width: 130,
      render: (_, f) =>
        when(
          f,
          (r) => r.dataType === 'enum',
          <Form.Item name={[f.name, 'enumValues']} rules={[rule(f.name, 'enumValues')]}>
            <EnumValuesInput />
          </Form.Item>,
        ),
    },
    {
      title: title('writable'),
      key: 'writable',
      width: 80,
      align: 'center',
      render: (_, f) => (
        <Form.Item name={[f.name, 'writable']} valuePropName="checked">
          <Switch size="small" aria-label={label('writable', f)} data-testid="field-writable" />
        </Form.Item>
      ),
    },
  ];
  if (!o.canEdit) return columns;
  columns.push({
    title: t('devicetypes:actions'),
    key: 'actions',
    fixed: 'right',
    width: 120,
    // `f.name` is the row's index in the whole list (the render index counts within the page).
    render: (_, f) => (
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
