import { useEffect, useMemo, useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Skeleton, Table, Typography, type FormListFieldData } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmRuleProblems, PARAM_LIMITS, paramProblems } from '@iot/contract/plain';
import type { AlarmRuleDto, DeviceTypeDto, ParamDto, ParamField } from '@iot/contract';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import { toRuleRow } from './alarm-rows';
import { useDeviceType, useSaveParams, useTypeAlarms, useTypeParams } from './api';
import {
  editableRows,
  editorLayout,
  fieldsWithErrors,
  openRows,
  problemRule,
  SaveProblemAlert,
  saveFailure,
  SettingsActions,
  useRowErrors,
  validateAll,
  type NamePath,
  type SaveProblem,
} from './list-editor';
import { ruleMessage } from '../../lib/localize';
import { useIsMobile } from '../../lib/use-mobile';
import { PARAM_MORE_FIELDS, paramColumns } from './param-columns';
import { newParamRow, removedIds, toParamInput, toParamRow, type ParamRow } from './param-rows';
import { TypeHeader, TypeNotFound, useCanChange, useTypeId } from './shared';
import './devicetypes.css';

interface Values {
  params: ParamRow[];
}

/**
 * Rows mounted at once. Every row is a handful of antd form controls (the rest in its expansion,
 * mounted when opened); mounting all of a type's rows (up to 500) froze the tab for seconds
 * (bench/README.md), so the table shows a page of them. Values of the other pages and of closed
 * expansions stay in the form; the contract's checks run on all rows.
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

function ParamEditor({ type, params }: { type: DeviceTypeDto; params: ParamDto[] }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const canEdit = useCanChange('devicetype:param', type);
  // Rules decide which parameters may go or change type; read them only to warn before saving.
  const alarms = useTypeAlarms(type.id, { silent: true });
  const save = useSaveParams();
  const errorRows = useRowErrors(form, 'params');
  const [problem, setProblem] = useState<SaveProblem>();
  const initial = useMemo<Values>(() => ({ params: params.map(toParamRow) }), [params]);
  const [page, setPage] = useState(1);
  const mobile = useIsMobile();
  /** Rows whose expansion is open (`FormListFieldData.key`), and the list's rows as last drawn. */
  const [expanded, setExpanded] = useState<readonly number[]>([]);
  const fieldsRef = useRef<FormListFieldData[]>([]);

  // After a save the list is read again: show what the server kept. Not on the first render,
  // where the form already holds `initial` (a reset re-rendered every control once more).
  const shown = useRef(initial);
  useEffect(() => {
    if (shown.current === initial) return;
    shown.current = initial;
    form.resetFields();
  }, [form, initial]);

  const rows = () => (form.getFieldValue('params') ?? []) as ParamRow[];

  const rule = (index: number, field: ParamField) => problemRule(t, () => paramProblems(rows()), index, field);

  /** Checks that depend on other cells (uniqueness, min ≤ max): validate them again. */
  const onValuesChange = (changed: Partial<Values>) => {
    const all = rows();
    const names = fieldsWithErrors(form);
    (changed.params ?? []).forEach((row, i) => {
      if (!row) return;
      if ('min' in row || 'max' in row || 'dataType' in row) names.push(['params', i, 'max']);
      if ('dataType' in row && all[i]?.dataType === 'enum') names.push(['params', i, 'enumValues']);
      if ('semaphoreId' in row) {
        all.forEach((r, j) => r.semaphoreId.trim() && names.push(['params', j, 'semaphoreId']));
      }
    });
    if (names.length > 0) {
      form
        .validateFields(names, { recursive: false })
        .catch(() => undefined)
        .finally(errorRows.refresh);
    }
  };

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

  const onSave = async () => {
    setProblem(undefined);
    // Only the page's cells are mounted: a problem on another page opens that page first, and
    // the rows of that page with a problem in a closed expansion are opened.
    const problems = paramProblems(rows());
    const first = problems[0];
    const shownPage = first ? pageOf(first.index) : page;
    const hidden = problems
      .filter((p) => pageOf(p.index) === shownPage && (mobile || PARAM_MORE_FIELDS.includes(p.field)))
      .map((p) => p.index);
    const open = openRows(expanded, fieldsRef.current, hidden);
    if (shownPage !== page || open !== expanded) {
      setPage(shownPage);
      setExpanded(open);
      await new Promise((resolve) => setTimeout(resolve));
    }
    if (!(await validateAll(form, t, errorRows.refresh)) || first) return;
    const next = rows();
    const conflict = ruleConflicts(next);
    if (conflict) {
      setProblem({ title: t('devicetypes:params.errors.blockedByRules'), detail: conflict });
      return;
    }
    try {
      await save.mutateAsync({ id: type.id, params: next.map(toParamInput) });
      errorRows.set([]);
      feedbackMessage().success(t('devicetypes:params.saved', { count: next.length }));
    } catch (err) {
      setProblem(
        saveFailure(err, {
          form,
          list: 'params',
          t,
          markRow: (i) => {
            errorRows.set([i]);
            setPage(pageOf(i));
            setExpanded((open) => openRows(open, fieldsRef.current, [i]));
          },
          label: (field) => t(`devicetypes:params.columns.${field}`, { defaultValue: field }),
        }),
      );
    }
  };

  const discard = () => {
    form.resetFields();
    errorRows.set([]);
    setProblem(undefined);
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
      <Form<Values>
        form={form}
        initialValues={initial}
        disabled={!canEdit || save.isPending}
        onValuesChange={onValuesChange}
        onFieldsChange={errorRows.refresh}
        component={false}
        size="small"
      >
        <Form.List name="params">
          {(fields, { add, remove, move }) => {
            // Where onSave finds a row's key (the list's rows are known only here).
            fieldsRef.current = fields;
            return (
              <>
                <Table<FormListFieldData>
                  className={canEdit ? 'dt-cell' : 'dt-cell dt-readonly'}
                  size="small"
                  rowKey="key"
                  bordered
                  pagination={{
                    current: Math.min(page, pageOf(Math.max(0, fields.length - 1))),
                    pageSize: PAGE_SIZE,
                    onChange: setPage,
                    showSizeChanger: false,
                    hideOnSinglePage: true,
                    size: 'small',
                  }}
                  dataSource={fields}
                  {...editorLayout({
                    t,
                    prefix: 'param',
                    mobile,
                    expanded,
                    onExpand: setExpanded,
                    columns: paramColumns({
                    t,
                    canEdit,
                    rowCount: fields.length,
                    rule,
                    nameOf: (i) => String(form.getFieldValue(['params', i, 'name']) ?? ''),
                    move: (from, to) => {
                      move(from, to);
                      setPage(pageOf(to));
                    },
                      remove: (i) => {
                        remove(i);
                        setTimeout(errorRows.refresh);
                      },
                    }),
                  })}
                  sticky
                  {...editableRows('param', errorRows.rows)}
                  locale={{ emptyText: t('devicetypes:params.empty') }}
                  data-testid="table-params"
                />
                {canEdit && (
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    style={{ marginTop: 12 }}
                    disabled={fields.length >= PARAM_LIMITS.rows}
                    onClick={() => {
                      add(newParamRow());
                      setPage(pageOf(fields.length));
                      const at: NamePath = ['params', fields.length, 'semaphoreId'];
                      setTimeout(() => form.scrollToField(at, { block: 'center', focus: true }));
                    }}
                    data-testid="btn-add-row"
                  >
                    {t('devicetypes:params.addRow')}
                  </Button>
                )}
                <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
                  {t('devicetypes:params.footer', { count: fields.length })}
                </Typography.Paragraph>
              </>
            );
          }}
        </Form.List>
      </Form>
    </Card>
  );
}
