import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmRuleProblems, PARAM_LIMITS, paramProblems } from '@iot/contract/plain';
import type { AlarmRuleDto, DeviceTypeDto, ParamDto } from '@iot/contract';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import { toRuleRow } from './alarm-rows';
import { useDeviceType, useSaveParams, useTypeAlarms, useTypeParams } from './api';
import { editableRows, editorLayout, openRows, SaveProblemAlert, saveFailure, SettingsActions, type SaveProblem } from './list-editor';
import { ruleMessage } from '../../lib/localize';
import { useIsMobile } from '../../lib/use-mobile';
import { PARAM_MORE_FIELDS, paramCellId, paramColumns, type ParamRecord } from './param-columns';
import {
  newParamRow,
  recheck,
  removedIds,
  shownProblems,
  toParamInput,
  toParamRow,
  type CellField,
  type ParamItem,
  type ParamRow,
  type ShownProblems,
} from './param-rows';
import { TypeHeader, TypeNotFound, useCanChange, useTypeId } from './shared';
import './devicetypes.css';

/**
 * Rows mounted at once. Every row is a handful of antd controls (the rest in its expansion,
 * mounted when opened); mounting all of a type's rows (up to 500) froze the tab for seconds
 * (bench/README.md), so the table shows a page of them. The rows of the other pages and of closed
 * expansions stay in the editor's state; the contract's checks run on all rows.
 */
const PAGE_SIZE = 10;
const pageOf = (index: number) => Math.floor(index / PAGE_SIZE) + 1;

/** §2 /device/setparam?id=: the type's parameters, edited as one list and saved at once. */
export default function ParamSettingsPage() {
  const id = useTypeId();
  const type = useDeviceType(id);
  const params = useTypeParams(id);
  if (id === undefined || type.isError || params.isError) return <TypeNotFound />;
  if (!type.data || !params.data) {
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  }
  return <ParamEditor type={type.data} params={params.data} />;
}

/** The rows being edited and the problems their cells show. */
interface EditorState {
  items: ParamItem[];
  shown: ShownProblems;
}

let lastKey = 0;
const toItems = (params: ParamDto[]): ParamItem[] => params.map((p) => ({ key: ++lastKey, row: toParamRow(p) }));
const fresh = (params: ParamDto[]): EditorState => ({ items: toItems(params), shown: new Map() });

function ParamEditor({ type, params }: { type: DeviceTypeDto; params: ParamDto[] }) {
  const { t } = useTranslation();
  const canEdit = useCanChange('devicetype:param', type);
  // Rules decide which parameters may go or change type; read them only to warn before saving.
  const alarms = useTypeAlarms(type.id, { silent: true });
  const save = useSaveParams();
  const [problem, setProblem] = useState<SaveProblem>();
  const [page, setPage] = useState(1);
  const mobile = useIsMobile();
  /** Rows whose expansion is open (`ParamItem.key`). */
  const [expanded, setExpanded] = useState<readonly number[]>([]);

  /*
   * The rows are plain state, not an antd form: a change draws the cells whose value or problem
   * changed, and checks the cell changed and those already showing a problem. `state` is what
   * was last drawn; `current` what the handlers have set since (two events may come before the
   * next render).
   */
  const [state, setState] = useState<EditorState>(() => fresh(params));
  const current = useRef(state);
  const update = useCallback((change: (s: EditorState) => EditorState) => {
    const next = change(current.current);
    if (next === current.current) return;
    current.current = next;
    setState(next);
  }, []);

  // After a save the list is read again: show what the server kept.
  const [source, setSource] = useState(params);
  if (source !== params) {
    setSource(params);
    const next = fresh(params);
    current.current = next;
    setState(next);
  }

  /** The cell to focus once the page has drawn it (a new row, the first problem). */
  const focusNext = useRef<{ index: number; field: CellField }>(undefined);
  useEffect(() => {
    const at = focusNext.current;
    if (!at) return;
    focusNext.current = undefined;
    const el = document.getElementById(paramCellId(at.index, at.field));
    if (!el) return;
    // (Not in jsdom, where the component tests run.)
    if ('scrollIntoView' in el) el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  });
  const focusCell = (index: number, field: CellField) => {
    focusNext.current = { index, field };
    setPage(pageOf(index));
  };

  const edit = useCallback(
    (index: number, patch: Partial<ParamRow>) =>
      update((s) => {
        const items = s.items.slice();
        const item = items[index];
        if (!item) return s;
        items[index] = { ...item, row: { ...item.row, ...patch } };
        // Checks that depend on other cells (uniqueness, min ≤ max, an enum's values) too.
        const cells = (Object.keys(patch) as CellField[]).map((field) => ({ index, field }));
        if ('min' in patch || 'dataType' in patch) cells.push({ index, field: 'max' });
        if (patch.dataType === 'enum') cells.push({ index, field: 'enumValues' });
        if ('semaphoreId' in patch) {
          items.forEach((it, j) => it.row.semaphoreId.trim() && cells.push({ index: j, field: 'semaphoreId' }));
        }
        return { items, shown: recheck(items, s.shown, cells) };
      }),
    [update],
  );
  const check = useCallback(
    (index: number, field: CellField) => update((s) => ({ ...s, shown: recheck(s.items, s.shown, [{ index, field }]) })),
    [update],
  );
  /** Replaces the rows (moved, removed, added): the problems shown are checked again. */
  const setItems = useCallback(
    (change: (items: ParamItem[]) => ParamItem[]) =>
      update((s) => {
        const items = change(s.items);
        return { items, shown: recheck(items, s.shown, []) };
      }),
    [update],
  );
  const move = useCallback(
    (from: number, to: number) => {
      setItems((items) => {
        const next = items.slice();
        [next[from], next[to]] = [next[to]!, next[from]!];
        return next;
      });
      setPage(pageOf(to));
    },
    [setItems],
  );
  const remove = useCallback((index: number) => setItems((items) => items.filter((_, i) => i !== index)), [setItems]);

  const { items, shown } = state;
  const records = useMemo<ParamRecord[]>(
    () => items.map((it, i) => ({ key: it.key, name: i, row: it.row, problems: shown.get(it.key) })),
    [items, shown],
  );
  const errorRows = useMemo(() => new Set(records.filter((r) => r.problems).map((r) => r.name)), [records]);
  const disabled = !canEdit || save.isPending;
  const columns = useMemo(
    () => paramColumns({ t, canEdit, disabled, rowCount: items.length, edit, check, move, remove }),
    [t, canEdit, disabled, items.length, edit, check, move, remove],
  );

  /** Alarm rules that would lose their parameter or no longer fit it (the server refuses both). */
  const ruleConflicts = (next: ParamRow[]): string | undefined => {
    const rules: AlarmRuleDto[] = alarms.data ?? [];
    if (rules.length === 0) return undefined;
    const gone = removedIds(rules.map((r) => r.semaphoreId), next);
    if (gone.length > 0) return t('devicetypes:params.errors.usedByRules', { ids: gone.join(', ') });
    const infos = next.map((r) => ({ semaphoreId: r.semaphoreId.trim(), dataType: r.dataType, enumValues: r.enumValues }));
    const misfits = alarmRuleProblems(rules.map(toRuleRow), infos).filter((p) =>
      ['comparison', 'threshold', 'threshold2'].includes(p.field),
    );
    if (misfits.length === 0) return undefined;
    const lang = currentLanguage();
    const list = [...new Set(misfits.map((p) => p.index))]
      .map((i) => `${i + 1}. ${ruleMessage(rules[i] as AlarmRuleDto, lang)} (${rules[i]?.semaphoreId})`)
      .join('; ');
    return t('devicetypes:params.errors.rulesNoLongerFit', { rules: list });
  };

  /** Whether a field of a row is in its expansion on this screen. */
  const inExpansion = (field: string) => mobile || PARAM_MORE_FIELDS.includes(field);

  const onSave = async () => {
    setProblem(undefined);
    const { items } = current.current;
    const rows = items.map((it) => it.row);
    const problems = paramProblems(rows);
    const first = problems[0];
    if (first) {
      // Every problem is shown; the page of the first one opens, with its rows' expansions
      // opened where a problem sits in one, and its cell takes the focus.
      update((s) => ({ ...s, shown: shownProblems(s.items, problems) }));
      const hidden = problems.filter((p) => pageOf(p.index) === pageOf(first.index) && inExpansion(p.field)).map((p) => p.index);
      setExpanded((open) => openRows(open, records, hidden));
      focusCell(first.index, first.field);
      feedbackMessage().error(t('devicetypes:fixErrors'));
      return;
    }
    const conflict = ruleConflicts(rows);
    if (conflict) {
      setProblem({ title: t('devicetypes:params.errors.blockedByRules'), detail: conflict });
      return;
    }
    try {
      await save.mutateAsync({ id: type.id, params: rows.map(toParamInput) });
      update((s) => ({ ...s, shown: new Map() }));
      feedbackMessage().success(t('devicetypes:params.saved', { count: rows.length }));
    } catch (err) {
      setProblem(
        saveFailure(err, {
          list: 'params',
          t,
          // The server's problem on its cell: the row's page, its expansion opened if the cell
          // is there, the focus on it.
          showField: ([, index, name]) => {
            const key = items[index]?.key;
            if (key === undefined) return;
            const field = name as CellField;
            update((s) => ({ ...s, shown: new Map(s.shown).set(key, { ...s.shown.get(key), [field]: { key: 'devicetypes:serverRefusedField' } }) }));
            if (inExpansion(field)) setExpanded((open) => (open.includes(key) ? open : [...open, key]));
            focusCell(index, field);
          },
          label: (field) => t(`devicetypes:params.columns.${field}`, { defaultValue: field }),
        }),
      );
    }
  };

  const discard = () => {
    update(() => fresh(params));
    setExpanded([]);
    setProblem(undefined);
  };

  const add = () => {
    const index = current.current.items.length;
    setItems((items) => [...items, { key: ++lastKey, row: newParamRow() }]);
    focusCell(index, 'semaphoreId');
  };

  return (
    <Card
      title={
        <TypeHeader
          type={type}
          title={t('devicetypes:params.title')}
          extra={canEdit && <SettingsActions saving={save.isPending} onDiscard={discard} onSave={onSave} />}
        />
      }
      data-testid="param-settings"
    >
      {!canEdit && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={type.builtin ? t('devicetypes:builtinReadOnly') : t('devicetypes:params.readOnly')}
        />
      )}
      {problem && <SaveProblemAlert problem={problem} onClose={() => setProblem(undefined)} />}
      <Table<ParamRecord>
        className={canEdit ? 'dt-cell' : 'dt-cell dt-readonly'}
        size="small"
        rowKey="key"
        bordered
        pagination={{
          current: Math.min(page, pageOf(Math.max(0, items.length - 1))),
          pageSize: PAGE_SIZE,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
          size: 'small',
        }}
        dataSource={records}
        {...editorLayout({ t, prefix: 'param', mobile, expanded, onExpand: setExpanded, columns })}
        sticky
        {...editableRows('param', errorRows)}
        locale={{ emptyText: t('devicetypes:params.empty') }}
        data-testid="table-params"
      />
      {canEdit && (
        <Button
          type="dashed"
          block
          icon={<PlusOutlined />}
          style={{ marginTop: 12 }}
          disabled={disabled || items.length >= PARAM_LIMITS.rows}
          onClick={add}
          data-testid="btn-add-row"
        >
          {t('devicetypes:params.addRow')}
        </Button>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('devicetypes:params.footer', { count: items.length })}
      </Typography.Paragraph>
    </Card>
  );
}
