import { useCallback, useState, type HTMLAttributes, type ReactNode } from 'react';
import { DownOutlined, RightOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm, Space, type FormInstance, type FormListFieldData, type TableProps } from 'antd';
import type { TFunction } from 'i18next';
import type { RowProblem } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, describeError, reportError } from '../../lib/http';
import { listFieldOf } from './shared';

/**
 * What the parameter and alarm settings pages share: both edit one Form.List in a table, mark
 * rows with errors, save the whole list and show where the server refused it.
 */

export type NamePath = (string | number)[];

/** A saving problem shown above the table: what was refused, and the detail. */
export interface SaveProblem {
  title: string;
  detail?: string;
}

/**
 * A form rule that shows the problem the contract's check finds in one cell, in the UI language
 * (`refusals:<reason>`, the same text the API's refusal gets).
 */
export function problemRule<F extends string>(
  t: TFunction,
  problems: () => readonly RowProblem<F>[],
  index: number,
  field: F,
  params?: (p: RowProblem<F>) => RowProblem['params'],
) {
  return {
    validator: async () => {
      const p = problems().find((x) => x.index === index && x.field === field);
      if (p) throw new Error(t(`refusals:${p.reason}`, params ? params(p) : p.params));
    },
  };
}

/** Indexes of the list's rows that hold a field error (client check or server). */
export function useRowErrors(form: FormInstance, list: string) {
  const [rows, setRows] = useState<ReadonlySet<number>>(new Set());
  const refresh = useCallback(() => {
    const next = new Set<number>();
    for (const f of form.getFieldsError()) {
      if (f.errors.length > 0 && f.name[0] === list && typeof f.name[1] === 'number') next.add(f.name[1]);
    }
    setRows((prev) => (prev.size === next.size && [...prev].every((x) => next.has(x)) ? prev : next));
  }, [form, list]);
  const set = useCallback((indexes: number[]) => setRows(new Set(indexes)), []);
  return { rows, refresh, set };
}

/** Names of the fields that currently show an error (to validate them again after a change). */
export function fieldsWithErrors(form: FormInstance): NamePath[] {
  return form
    .getFieldsError()
    .filter((f) => f.errors.length > 0)
    .map((f) => f.name as NamePath);
}

/** Validates every row; on failure scrolls to the first error and says so. */
export async function validateAll(form: FormInstance, t: TFunction, onDone: () => void): Promise<boolean> {
  try {
    await form.validateFields({ recursive: true });
    return true;
  } catch (err) {
    onDone();
    const first = (err as { errorFields?: { name: NamePath }[] }).errorFields?.[0];
    if (first) form.scrollToField(first.name, { block: 'center', focus: true });
    feedbackMessage().error(t('devicetypes:fixErrors'));
    return false;
  }
}

/**
 * A failed save: a server error naming `list.N.field` is shown on that cell (`showField`: the
 * page opens its row first, the cell may sit in a closed expansion); other refusals become a
 * problem above the table; anything else (session, permission, network) goes to the global
 * error feedback.
 */
export function saveFailure(
  err: unknown,
  opts: {
    list: string;
    t: TFunction;
    showField: (path: [string, number, string], message: string) => void;
    label: (field: string) => string;
  },
): SaveProblem | undefined {
  if (!(err instanceof ApiError)) throw err;
  const { list, t } = opts;
  const field = listFieldOf(err, list);
  if (field) {
    const [, index, name] = field.path;
    opts.showField(field.path, t('devicetypes:serverRefusedField'));
    return { title: t('devicetypes:serverError', { row: index + 1, field: opts.label(name) }), detail: field.message };
  }
  if (err.code === 40000 || err.code === 40900) return { title: t('devicetypes:saveRefused'), detail: describeError(err) };
  reportError(err);
  return undefined;
}

/**
 * Shows an error on a cell of an antd form list once the page has drawn it: a field of a row's
 * expansion is mounted only after the row opens, and an error set before would be lost.
 */
export function showFormFieldError(form: FormInstance, path: NamePath, message: string) {
  setTimeout(() => {
    form.setFields([{ name: path, errors: [message] }]);
    form.scrollToField(path, { block: 'center' });
  });
}

/** Discard (with confirmation) and Save, for the page header. */
export function SettingsActions({ saving, onDiscard, onSave }: { saving: boolean; onDiscard: () => void; onSave: () => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Popconfirm
        title={t('devicetypes:discardConfirm')}
        okText={t('common:confirm')}
        cancelText={t('common:cancel')}
        onConfirm={onDiscard}
      >
        <Button icon={<UndoOutlined />} data-testid="btn-discard">
          {t('devicetypes:discard')}
        </Button>
      </Popconfirm>
      <Button type="primary" loading={saving} onClick={onSave} data-testid="btn-save">
        {t('devicetypes:save')}
      </Button>
    </Space>
  );
}

export function SaveProblemAlert({
  problem,
  onClose,
  hint,
  action,
}: {
  problem: SaveProblem;
  onClose: () => void;
  hint?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Alert
      type="error"
      showIcon
      closable={{ onClose }}
      style={{ marginBottom: 16 }}
      title={problem.title}
      description={
        <>
          {problem.detail}
          {hint}
        </>
      }
      action={action}
      data-testid="save-problem"
    />
  );
}

/**
 * Table props of an editable list: `<prefix>-row-<index>` test ids and the error highlight, by
 * the row's index in the whole list (`name` of a Form.List row: a paged table counts its render
 * index within the page).
 */
export function editableRows(prefix: string, errorRows: ReadonlySet<number>) {
  return {
    rowClassName: (row: { name: number }) => (errorRows.has(row.name) ? 'dt-row-error' : ''),
    onRow: (row: { name: number }) =>
      ({
        'data-testid': `${prefix}-row-${row.name}`,
        'data-error': errorRows.has(row.name) ? 'true' : undefined,
      }) as HTMLAttributes<HTMLElement>,
  };
}

/** A row of an editable list as its table draws it: a stable key and its index in the whole list. */
export interface ListRow {
  key: number;
  name: number;
}

/**
 * A column of an editable list. The row shows the columns an operator sets for every row; the
 * others (`more`: translations, rarely changed fields) sit in the row's expansion, mounted only
 * when it is open, so the table fits a 1,280 px screen and a page of rows mounts few controls.
 */
export interface EditorColumn<R extends ListRow = FormListFieldData> {
  key: string;
  title: ReactNode;
  /** Pixels on a desktop; the table is as wide as its row's columns. */
  width: number;
  align?: 'center';
  fixed?: 'left' | 'right';
  render: (f: R) => ReactNode;
  /** In the row's expansion, not a column. */
  more?: boolean;
  /** On a phone, one of the row's key fields (stacked in its one cell); the rest are in the expansion. */
  phone?: boolean;
}

/** Width antd gives the expand column. */
const EXPAND_WIDTH = 40;

const Field = <R extends ListRow>({ c, f, sized }: { c: EditorColumn<R>; f: R; sized?: boolean }) => (
  <div className="dt-more-field" style={sized ? { width: c.width, maxWidth: '100%' } : undefined}>
    <div className="dt-more-label">{c.title}</div>
    {c.render(f)}
  </div>
);

/**
 * Table props of an editable list laid out for the screen: on a desktop the row's columns (the
 * first ones pinned) and the `more` fields in an expansion; on a phone one cell with the row's
 * key fields and the rest in the expansion (`<prefix>-more-<index>`).
 */
export function editorLayout<R extends ListRow>(o: {
  t: TFunction;
  prefix: string;
  columns: EditorColumn<R>[];
  mobile: boolean;
  /** Keys (`FormListFieldData.key`) of the open rows. */
  expanded: readonly number[];
  onExpand: (keys: number[]) => void;
}): Pick<TableProps<R>, 'columns' | 'expandable' | 'scroll'> {
  const { t, prefix, columns, mobile } = o;
  const main = mobile ? columns.filter((c) => c.phone) : columns.filter((c) => !c.more);
  const more = mobile ? columns.filter((c) => !c.phone && c.key !== 'sort') : columns.filter((c) => c.more);
  const tableColumns: TableProps<R>['columns'] = mobile
    ? [
        {
          key: 'fields',
          render: (_: unknown, f: R) => (
            <div className="dt-stack">
              {main.map((c) => (
                <Field key={c.key} c={c} f={f} />
              ))}
            </div>
          ),
        },
      ]
    : main.map((c) => ({
        key: c.key,
        title: c.title,
        width: c.width,
        align: c.align,
        fixed: c.fixed,
        render: (_: unknown, f: R) => c.render(f),
      }));
  return {
    columns: tableColumns,
    scroll: mobile ? undefined : { x: main.reduce((sum, c) => sum + c.width, EXPAND_WIDTH) },
    expandable:
      more.length === 0
        ? undefined
        : {
            columnWidth: EXPAND_WIDTH,
            fixed: mobile ? undefined : 'left',
            expandedRowKeys: [...o.expanded],
            onExpandedRowsChange: (keys) => o.onExpand(keys.map(Number)),
            expandIcon: ({ expanded, onExpand, record }) => (
              <Button
                type="text"
                size="small"
                icon={expanded ? <DownOutlined /> : <RightOutlined />}
                aria-expanded={expanded}
                aria-label={t('devicetypes:moreFields', { row: record.name + 1 })}
                onClick={(e) => onExpand(record, e)}
                data-testid="btn-more"
              />
            ),
            expandedRowRender: (f) => (
              <div className="dt-more" data-testid={`${prefix}-more-${f.name}`}>
                {more.map((c) => (
                  <Field key={c.key} c={c} f={f} sized />
                ))}
              </div>
            ),
          },
  };
}

/** Opens the rows at these indexes (their expansions hold fields to show, such as an error). */
export function openRows(expanded: readonly number[], fields: readonly ListRow[], indexes: readonly number[]) {
  const keys = indexes.map((i) => fields[i]?.key).filter((k): k is number => k !== undefined);
  return keys.every((k) => expanded.includes(k)) ? expanded : [...new Set([...expanded, ...keys])];
}
