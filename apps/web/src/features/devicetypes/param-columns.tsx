import { memo, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, Input, InputNumber, Popconfirm, Select, Switch, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import { isNumericType as isNumeric, PARAM_DATA_TYPES, PARAM_LIMITS as LIMITS } from '@iot/contract/plain';
import type { ParamDataType } from '@iot/contract';
import { EnumValuesInput } from './EnumValuesInput';
import type { EditorColumn, ListRow } from './list-editor';
import { cellLabel } from './shared';
import type { CellField, ParamRow, RowProblems } from './param-rows';

/** A row of the parameter table: its values and the problems its cells show. */
export interface ParamRecord extends ListRow {
  row: ParamRow;
  problems?: RowProblems;
}

export interface ParamColumnsOptions {
  t: TFunction;
  canEdit: boolean;
  /** Read-only or saving. */
  disabled: boolean;
  rowCount: number;
  /** Changes fields of the row at `index` (stable: cells skip drawing when their value is the same). */
  edit: (index: number, patch: Partial<ParamRow>) => void;
  /** Checks a cell again (on leaving it). */
  check: (index: number, field: CellField) => void;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}

/** Fields in a row's expansion (`more`): the translations and what is rarely changed. */
export const PARAM_MORE_FIELDS: readonly string[] = ['nameEn', 'nameEs', 'nameJa', 'groupName', 'precision'];

/** The DOM id of a cell's control (to focus the first error), `params_3_unit`. */
export const paramCellId = (index: number, field: CellField) => `params_${index}_${field}`;

type TextField = 'semaphoreId' | 'name' | 'nameEn' | 'nameEs' | 'nameJa' | 'unit' | 'groupName';

interface CellProps {
  index: number;
  label: string;
  /** The problem shown under the control, in the UI language. */
  error: string | undefined;
  disabled: boolean;
}

/** The control's error attributes and the message under it. */
function errorProps(id: string, error: string | undefined) {
  return {
    status: error ? ('error' as const) : undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}_error` : undefined,
  };
}

function CellError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <div id={`${id}_error`} className="dt-cell-error" role="alert">
      {error}
    </div>
  ) : null;
}

/*
 * The cells are plain controlled antd inputs, not a Form.Item each (which brings a grid row and
 * column, status and context providers): a page of rows mounts in a fraction of the time, and a
 * cell is drawn again only when its own value or problem changes (memo).
 */

const TextCell = memo(function TextCell(
  p: CellProps & { field: TextField; value: string; max: number; edit: ParamColumnsOptions['edit']; check: ParamColumnsOptions['check'] },
) {
  const id = paramCellId(p.index, p.field);
  return (
    <>
      <Input
        id={id}
        size="small"
        value={p.value}
        maxLength={p.max}
        disabled={p.disabled}
        aria-label={p.label}
        {...errorProps(id, p.error)}
        onChange={(e) => p.edit(p.index, { [p.field]: e.target.value })}
        onBlur={() => p.check(p.index, p.field)}
        data-testid={`field-${p.field}`}
      />
      <CellError id={id} error={p.error} />
    </>
  );
});

const NumberCell = memo(function NumberCell(
  p: CellProps & {
    field: 'min' | 'max' | 'precision';
    value: number | null;
    placeholder?: string;
    width: number;
    edit: ParamColumnsOptions['edit'];
  },
) {
  const id = paramCellId(p.index, p.field);
  const precision = p.field === 'precision';
  return (
    <div>
      <InputNumber<number>
        id={id}
        size="small"
        value={p.value}
        min={precision ? 0 : undefined}
        max={precision ? LIMITS.precision : undefined}
        precision={precision ? 0 : undefined}
        style={{ width: p.width }}
        placeholder={p.placeholder}
        disabled={p.disabled}
        aria-label={p.label}
        {...errorProps(id, p.error)}
        onChange={(v) => p.edit(p.index, { [p.field]: typeof v === 'number' ? v : null })}
        data-testid={`field-${p.field}`}
      />
      <CellError id={id} error={p.error} />
    </div>
  );
});

const TypeCell = memo(function TypeCell(
  p: CellProps & { value: ParamDataType; options: { value: string; label: string }[]; edit: ParamColumnsOptions['edit'] },
) {
  const id = paramCellId(p.index, 'dataType');
  return (
    <Select<ParamDataType>
      id={id}
      size="small"
      style={{ width: 112 }}
      value={p.value}
      disabled={p.disabled}
      aria-label={p.label}
      options={p.options}
      onChange={(dataType) => p.edit(p.index, { dataType })}
      data-testid="field-dataType"
    />
  );
});

const EnumCell = memo(function EnumCell(p: CellProps & { value: ParamRow['enumValues']; edit: ParamColumnsOptions['edit'] }) {
  const id = paramCellId(p.index, 'enumValues');
  return (
    <div>
      <EnumValuesInput
        id={id}
        value={p.value}
        disabled={p.disabled}
        invalid={!!p.error}
        aria-describedby={p.error ? `${id}_error` : undefined}
        onChange={(enumValues) => p.edit(p.index, { enumValues })}
      />
      <CellError id={id} error={p.error} />
    </div>
  );
});

const SwitchCell = memo(function SwitchCell(p: CellProps & { value: boolean; edit: ParamColumnsOptions['edit'] }) {
  return (
    <Switch
      id={paramCellId(p.index, 'writable')}
      size="small"
      checked={p.value}
      disabled={p.disabled}
      aria-label={p.label}
      onChange={(writable) => p.edit(p.index, { writable })}
      data-testid="field-writable"
    />
  );
});

const ActionsCell = memo(function ActionsCell(p: {
  index: number;
  rowCount: number;
  confirm: string;
  labels: { up: string; down: string; remove: string; ok: string; cancel: string };
  disabled: boolean;
  move: ParamColumnsOptions['move'];
  remove: ParamColumnsOptions['remove'];
}) {
  const { labels } = p;
  return (
    <div className="dt-actions">
      {/* Native titles: a popup tooltip would stay behind when its row moves away. */}
      <Button
        type="text"
        size="small"
        icon={<ArrowUpOutlined />}
        disabled={p.disabled || p.index === 0}
        onClick={() => p.move(p.index, p.index - 1)}
        title={labels.up}
        aria-label={labels.up}
        data-testid="btn-up"
      />
      <Button
        type="text"
        size="small"
        icon={<ArrowDownOutlined />}
        disabled={p.disabled || p.index === p.rowCount - 1}
        onClick={() => p.move(p.index, p.index + 1)}
        title={labels.down}
        aria-label={labels.down}
        data-testid="btn-down"
      />
      <DeleteRow
        confirm={p.confirm}
        labels={labels}
        disabled={p.disabled}
        onConfirm={() => p.remove(p.index)}
      />
    </div>
  );
});

/**
 * The delete button of a row, asking in a popover beside it. The popover is mounted on the first
 * click only (a Popconfirm on every row was a tenth of the page's mount); the button then takes
 * the focus again, as it is drawn anew inside the popover's trigger.
 */
function DeleteRow(p: {
  confirm: string;
  labels: { remove: string; ok: string; cancel: string };
  disabled: boolean;
  onConfirm: () => void;
}) {
  const [armed, setArmed] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (armed) ref.current?.focus();
  }, [armed]);
  const button = (
    <Button
      ref={ref}
      type="text"
      size="small"
      danger
      disabled={p.disabled}
      icon={<DeleteOutlined />}
      aria-label={p.labels.remove}
      onClick={armed ? undefined : () => setArmed(true)}
      data-testid="btn-delete-row"
    />
  );
  if (!armed) return button;
  return (
    <Popconfirm
      defaultOpen
      title={p.confirm}
      okText={p.labels.ok}
      cancelText={p.labels.cancel}
      okButtonProps={{ danger: true, 'data-testid': 'btn-confirm-delete' }}
      onConfirm={p.onConfirm}
      disabled={p.disabled}
    >
      {button}
    </Popconfirm>
  );
}

/**
 * Columns of the parameter table, one editable field each. The row holds what every parameter
 * needs (id, name, unit, type, range or values, writable); the translations, display group and
 * decimals are in its expansion. Its fields fit 1,280 px (~950 px). Make them once per change of
 * the options (the labels of the cells are kept).
 */
export function paramColumns(o: ParamColumnsOptions): EditorColumn<ParamRecord>[] {
  const { t, edit, disabled } = o;
  const title = (field: string) => t(`devicetypes:params.columns.${field}`);
  const labels = new Map<string, string>();
  const label = (field: string, index: number) => {
    const key = `${field}:${index}`;
    let text = labels.get(key);
    if (text === undefined) labels.set(key, (text = cellLabel(t, title(field), index)));
    return text;
  };
  const error = (r: ParamRecord, field: CellField) => {
    const p = r.problems?.[field];
    return p ? t(p.key, p.params) : undefined;
  };
  const dash = <span className="dt-dash">{t('common:empty')}</span>;
  const cell = (r: ParamRecord, field: CellField) => ({ index: r.name, label: label(field, r.name), error: error(r, field), disabled });

  const text = (field: TextField, max: number) =>
    function Cell(r: ParamRecord) {
      return <TextCell {...cell(r, field)} field={field} value={r.row[field]} max={max} edit={edit} check={o.check} />;
    };

  const number = (r: ParamRecord, field: 'min' | 'max' | 'precision', width: number, placeholder?: string) => (
    <NumberCell {...cell(r, field)} field={field} value={r.row[field]} width={width} placeholder={placeholder} edit={edit} />
  );

  const typeOptions = PARAM_DATA_TYPES.map((d) => ({ value: d, label: t(`devicetypes:dataTypes.${d}`) }));
  const actionLabels = {
    up: t('devicetypes:moveUp'),
    down: t('devicetypes:moveDown'),
    remove: t('devicetypes:deleteRow'),
    ok: t('common:confirm'),
    cancel: t('common:cancel'),
  };

  const columns: EditorColumn<ParamRecord>[] = [
    { key: 'sort', title: title('sort'), width: 48, fixed: 'left', align: 'center', render: (r) => r.name + 1 },
    { key: 'semaphoreId', title: title('semaphoreId'), width: 130, fixed: 'left', phone: true, render: text('semaphoreId', LIMITS.semaphoreId) },
    { key: 'name', title: title('name'), width: 150, phone: true, render: text('name', LIMITS.name) },
    { key: 'unit', title: title('unit'), width: 80, render: text('unit', LIMITS.unit) },
    {
      key: 'dataType',
      title: title('dataType'),
      width: 124,
      phone: true,
      render: (r) => <TypeCell {...cell(r, 'dataType')} value={r.row.dataType} options={typeOptions} edit={edit} />,
    },
    {
      // Min and max of a number, the values of an enum: what bounds the parameter.
      key: 'range',
      title: title('range'),
      width: 200,
      render: (r): ReactNode =>
        isNumeric(r.row.dataType) ? (
          <div className="dt-range">
            {number(r, 'min', 88, title('min'))}
            {number(r, 'max', 88, title('max'))}
          </div>
        ) : r.row.dataType === 'enum' ? (
          <EnumCell {...cell(r, 'enumValues')} value={r.row.enumValues} edit={edit} />
        ) : (
          dash
        ),
    },
    {
      key: 'writable',
      title: title('writable'),
      width: 72,
      align: 'center',
      render: (r) => <SwitchCell {...cell(r, 'writable')} value={r.row.writable} edit={edit} />,
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
      render: (r) => (r.row.dataType === 'number' ? number(r, 'precision', 70) : dash),
    },
  ];
  if (!o.canEdit) return columns;
  columns.push({
    key: 'actions',
    title: t('devicetypes:actions'),
    fixed: 'right',
    width: 108,
    // `r.name` is the row's index in the whole list (the render index counts within the page).
    render: (r) => (
      <ActionsCell
        index={r.name}
        rowCount={o.rowCount}
        confirm={t('devicetypes:params.deleteConfirm', { name: r.row.name || t('devicetypes:params.newRow') })}
        labels={actionLabels}
        disabled={disabled}
        move={o.move}
        remove={o.remove}
      />
    ),
  });
  return columns;
}
