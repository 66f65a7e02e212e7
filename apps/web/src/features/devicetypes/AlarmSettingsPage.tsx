import { useEffect, useMemo, useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Popconfirm, Skeleton, Table, Typography, type FormListFieldData } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ALARM_LIMITS, alarmRuleProblems, COMPARISONS_BY_TYPE, isRangeComparison } from '@iot/contract/plain';
import type { AlarmRuleDto, AlarmRuleField, DeviceTypeDto, ParamDto } from '@iot/contract';
import { useMenuPage } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import { useIsMobile } from '../../lib/use-mobile';
import { ALARM_MORE_FIELDS, alarmColumns, comparisonLabel } from './alarm-columns';
import { fitToParam, newRuleRow, normalizeThreshold, toRuleInput, toRuleRow, type RuleRow } from './alarm-rows';
import { useDeviceType, useSaveAlarms, useTypeAlarms, useTypeParams } from './api';
import {
  editableRows,
  editorLayout,
  fieldsWithErrors,
  openRows,
  problemRule,
  SaveProblemAlert,
  saveFailure,
  SettingsActions,
  showFormFieldError,
  useRowErrors,
  validateAll,
  type NamePath,
  type SaveProblem,
} from './list-editor';
import { localName } from '../../lib/localize';
import { TypeHeader, TypeNotFound, useCanChange, useTypeId } from './shared';
import { AlarmLevelLegend } from '../../components/AlarmLevel';
import './devicetypes.css';

interface Values {
  rules: RuleRow[];
}

/** §2 /device/setalarm?id=: the type's alarm rules, edited as one list and saved at once. */
export default function AlarmSettingsPage() {
  const id = useTypeId();
  const type = useDeviceType(id);
  const params = useTypeParams(id);
  const alarms = useTypeAlarms(id);
  if (id === undefined || type.isError || params.isError || alarms.isError) return <TypeNotFound />;
  if (!type.data || !params.data || !alarms.data) {
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  }
  const reload = () => {
    void params.refetch();
    void alarms.refetch();
  };
  return <AlarmEditor type={type.data} params={params.data} rules={alarms.data} onReload={reload} />;
}

interface EditorProps {
  type: DeviceTypeDto;
  params: ParamDto[];
  rules: AlarmRuleDto[];
  /** Reads parameters and rules again (someone else may have changed them), dropping edits. */
  onReload: () => void;
}

function AlarmEditor({ type, params, rules, onReload }: EditorProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const canEdit = useCanChange('devicetype:alarm', type);
  const canSetParams = useMenuPage('/device/setparam');
  const save = useSaveAlarms();
  const errorRows = useRowErrors(form, 'rules');
  const [problem, setProblem] = useState<SaveProblem>();
  const mobile = useIsMobile();
  /** Rows whose expansion is open (`FormListFieldData.key`), and the list's rows as last drawn. */
  const [expanded, setExpanded] = useState<readonly number[]>([]);
  const fieldsRef = useRef<FormListFieldData[]>([]);
  const byId = useMemo(() => new Map(params.map((p) => [p.semaphoreId, p])), [params]);
  const paramOf = (row: RuleRow | undefined) => (row?.semaphoreId ? byId.get(row.semaphoreId) : undefined);
  const initial = useMemo<Values>(
    () => ({ rules: rules.map((r) => normalizeThreshold(toRuleRow(r), byId.get(r.semaphoreId))) }),
    [rules, byId],
  );

  useEffect(() => form.resetFields(), [form, initial]);

  const lang = currentLanguage();
  const paramOptions = useMemo(
    () =>
      params.map((p) => ({
        value: p.semaphoreId,
        label: `${p.semaphoreId} · ${localName(p, lang)}${p.unit ? ` (${p.unit})` : ''}`,
      })),
    [params, lang],
  );

  const rows = () => (form.getFieldValue('rules') ?? []) as RuleRow[];

  // Comparisons are shown as the picker shows them (=, ≠), not as API codes.
  const rule = (index: number, field: AlarmRuleField) =>
    problemRule(t, () => alarmRuleProblems(rows(), params), index, field, (p) => {
      const param = paramOf(rows()[p.index]);
      return p.reason === 'ruleComparison' && param
        ? { allowed: COMPARISONS_BY_TYPE[param.dataType].map((c) => comparisonLabel(t, c)).join(', ') }
        : p.params;
    });

  /** A new parameter may change the allowed comparisons and the threshold's kind. */
  const onValuesChange = (changed: Partial<Values>) => {
    const all = rows();
    const names = fieldsWithErrors(form);
    (changed.rules ?? []).forEach((delta, i) => {
      const row = all[i];
      if (!delta || !row) return;
      if ('semaphoreId' in delta) {
        const patch = fitToParam(row, paramOf(row));
        if (Object.keys(patch).length > 0) form.setFieldValue(['rules', i], { ...row, ...patch });
        names.push(['rules', i, 'comparison'], ['rules', i, 'threshold']);
      }
      if (('threshold' in delta || 'comparison' in delta) && isRangeComparison(row.comparison)) {
        names.push(['rules', i, 'threshold2']);
      }
    });
    if (names.length > 0) {
      // After the patch above has reached the fields.
      setTimeout(() =>
        form
          .validateFields(names, { recursive: false })
          .catch(() => undefined)
          .finally(errorRows.refresh),
      );
    }
  };

  const onSave = async () => {
    setProblem(undefined);
    // A problem in a closed expansion: open its row first, so the check shows it there.
    const hidden = alarmRuleProblems(rows(), params)
      .filter((p) => mobile || ALARM_MORE_FIELDS.includes(p.field))
      .map((p) => p.index);
    const open = openRows(expanded, fieldsRef.current, hidden);
    if (open !== expanded) {
      setExpanded(open);
      await new Promise((resolve) => setTimeout(resolve));
    }
    if (!(await validateAll(form, t, errorRows.refresh))) return;
    const next = rows();
    try {
      await save.mutateAsync({ id: type.id, rules: next.map((r) => toRuleInput(r, paramOf(r))) });
      errorRows.set([]);
      feedbackMessage().success(t('devicetypes:alarms.saved', { count: next.length }));
    } catch (err) {
      setProblem(
        saveFailure(err, {
          list: 'rules',
          t,
          showField: (path, message) => {
            errorRows.set([path[1]]);
            setExpanded((keys) => openRows(keys, fieldsRef.current, [path[1]]));
            showFormFieldError(form, path, message);
          },
          label: (field) => t(`devicetypes:alarms.columns.${field}`, { defaultValue: field }),
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
          title={t('devicetypes:alarms.title')}
          extra={canEdit && <SettingsActions saving={save.isPending} onDiscard={discard} onSave={onSave} />}
        />
      }
      data-testid="alarm-settings"
    >
      {!canEdit && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={type.builtin ? t('devicetypes:builtinReadOnly') : t('devicetypes:alarms.readOnly')}
        />
      )}
      {params.length === 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('devicetypes:alarms.noParams')}
          action={
            canSetParams && (
              <Link to={`/device/setparam?id=${type.id}`}>
                <Button size="small">{t('devicetypes:list.params')}</Button>
              </Link>
            )
          }
          data-testid="no-params"
        />
      )}
      {problem && (
        <SaveProblemAlert
          problem={problem}
          onClose={() => setProblem(undefined)}
          // The server checks rules against its current parameters, which may be newer than ours.
          hint={
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
              {t('devicetypes:alarms.staleHint')}
            </Typography.Paragraph>
          }
          action={
            <Popconfirm
              title={t('devicetypes:discardConfirm')}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              onConfirm={() => {
                // Unchanged data keeps its identity (no reset from the effect): reset here too.
                discard();
                onReload();
              }}
            >
              <Button size="small" data-testid="btn-reload">
                {t('devicetypes:alarms.reload')}
              </Button>
            </Popconfirm>
          }
        />
      )}
      <Form<Values>
        form={form}
        initialValues={initial}
        disabled={!canEdit || save.isPending}
        onValuesChange={onValuesChange}
        onFieldsChange={errorRows.refresh}
        component={false}
        size="small"
      >
        <Form.List name="rules">
          {(fields, { add, remove }) => {
            // Where onSave finds a row's key (the list's rows are known only here).
            fieldsRef.current = fields;
            return (
              <>
                <Table<FormListFieldData>
                  className={canEdit ? 'dt-cell' : 'dt-cell dt-readonly'}
                  size="small"
                  rowKey="key"
                  bordered
                  pagination={false}
                  dataSource={fields}
                  {...editorLayout({
                    t,
                    prefix: 'alarm',
                    mobile,
                    expanded,
                    onExpand: setExpanded,
                    columns: alarmColumns({
                      t,
                      canEdit,
                      params: byId,
                      paramOptions,
                      rule,
                      remove: (i) => {
                        remove(i);
                        setTimeout(errorRows.refresh);
                      },
                    }),
                  })}
                  sticky
                  {...editableRows('alarm', errorRows.rows)}
                  locale={{ emptyText: t('devicetypes:alarms.empty') }}
                  data-testid="table-alarms"
                />
                {canEdit && (
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    style={{ marginTop: 12 }}
                    disabled={params.length === 0 || fields.length >= ALARM_LIMITS.rows}
                    onClick={() => {
                      add(newRuleRow());
                      const at: NamePath = ['rules', fields.length, 'semaphoreId'];
                      setTimeout(() => form.scrollToField(at, { block: 'center' }));
                    }}
                    data-testid="btn-add-row"
                  >
                    {t('devicetypes:alarms.addRow')}
                  </Button>
                )}
                <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
                  {t('devicetypes:alarms.footer', { count: fields.length })} · {t('common:severity.legend')} <AlarmLevelLegend />
                </Typography.Paragraph>
              </>
            );
          }}
        </Form.List>
      </Form>
    </Card>
  );
}
