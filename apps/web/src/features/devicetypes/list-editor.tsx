import { useCallback, useState, type HTMLAttributes, type ReactNode } from 'react';
import { UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm, Space, type FormInstance } from 'antd';
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
 * A failed save: a server error naming `list.N.field` marks that cell and row; other refusals
 * become a problem above the table; anything else (session, permission, network) goes to the
 * global error feedback.
 */
export function saveFailure(
  err: unknown,
  opts: { form: FormInstance; list: string; t: TFunction; markRow: (index: number) => void; label: (field: string) => string },
): SaveProblem | undefined {
  if (!(err instanceof ApiError)) throw err;
  const { form, list, t } = opts;
  const field = listFieldOf(err, list);
  if (field) {
    const [, index, name] = field.path;
    form.setFields([{ name: field.path, errors: [t('devicetypes:serverRefusedField')] }]);
    opts.markRow(index);
    form.scrollToField(field.path, { block: 'center' });
    return { title: t('devicetypes:serverError', { row: index + 1, field: opts.label(name) }), detail: field.message };
  }
  if (err.code === 40000 || err.code === 40900) return { title: t('devicetypes:saveRefused'), detail: describeError(err) };
  reportError(err);
  return undefined;
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
