import { useMemo, type ReactNode } from 'react';
import { Button, Checkbox, Popover, Space, Table, Typography, theme } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useColumnChoice, type ColumnChoice } from '../lib/column-choice';
import { useIsMobile } from '../lib/use-mobile';
import { useScrollRestore } from '../lib/use-scroll-restore';

/** A column of a `DataTable`: antd's column with a key, a width and where it shows. */
export interface DataColumn<T> extends ColumnType<T> {
  key: string;
  /** Pixels on a desktop; the table is as wide as its shown columns. */
  width: number;
  /** Off until the user turns it on in the column chooser (the less important columns). */
  optional?: boolean;
  /** On a phone, shown with its title under the first column's value (the row's key fields). */
  phone?: boolean;
}

/** The key of the row actions column (`actionsColumn`): never hidden, kept on phones. */
const ACTIONS = 'actions';
/** Widths antd gives the selection and the expand columns (its `middle` size). */
const SELECTION_WIDTH = 32;
const EXPAND_WIDTH = 48;

interface Props<T> extends Omit<TableProps<T>, 'columns' | 'scroll'> {
  /** Names the table in the user's remembered column choice (`devices`, `alarms`, …). */
  tableId: string;
  /** The first column identifies the row: pinned at the start, never hidden. */
  columns: DataColumn<T>[];
  /** Shown at the start of the column chooser's row (bulk buttons, a count). */
  toolbar?: ReactNode;
  /** A page's own list scrolls back to where the user left it (off inside drawers and tabs). */
  restoreScroll?: boolean;
}

const shownBy = <T,>(c: DataColumn<T>, choice: ColumnChoice, first: boolean) =>
  first || c.key === ACTIONS || (choice[c.key] ?? !c.optional);

function cellValue<T>(c: DataColumn<T>, row: T, index: number): ReactNode {
  const value = typeof c.dataIndex === 'string' ? (row as Record<string, unknown>)[c.dataIndex] : undefined;
  if (c.render) return c.render(value, row, index) as ReactNode;
  return value === null || value === undefined ? '' : String(value as string | number);
}

/**
 * The console's list table. On a desktop it shows the columns the user chose (the column chooser,
 * remembered per user), the first one pinned, long texts cut with an ellipsis and the whole title
 * or text on hover, and is exactly as wide as those columns: the defaults of every list fit a
 * 1,280 px screen (at most ~970 px beside the sidebar, leaving room for a desktop browser's
 * scrollbar). On a phone each row is one cell with the row's key fields under its name, and
 * the actions.
 */
export function DataTable<T extends object>({ tableId, columns, toolbar, restoreScroll = true, ...table }: Props<T>) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { token } = theme.useToken();
  const [choice, setChoice] = useColumnChoice(tableId);
  useScrollRestore(restoreScroll && !table.loading && (table.dataSource?.length ?? 0) > 0);

  const [first, ...rest] = columns;
  const shown = useMemo(() => columns.filter((c, i) => shownBy(c, choice, i === 0)), [columns, choice]);

  const desktopColumns = useMemo<DataColumn<T>[]>(
    () =>
      shown.map((c, i) => ({
        ...c,
        // A long title wraps (a title cut short is not read); cells keep one line and the title
        // attribute (antd) shows a cut text whole.
        title: <span style={{ whiteSpace: 'normal' }}>{c.title as ReactNode}</span>,
        ellipsis: c.ellipsis ?? c.key !== ACTIONS,
        fixed: i === 0 ? 'start' : c.fixed,
      })),
    [shown],
  );

  const phoneColumns = useMemo<DataColumn<T>[]>(() => {
    if (!first) return [];
    const keyFields = rest.filter((c) => c.phone);
    const actions = rest.find((c) => c.key === ACTIONS);
    // A narrow actions column (a "more" menu) stays a column; a row of buttons goes under the
    // fields, where it has the phone's whole width.
    const actionsInside = actions && actions.width > 80 ? actions : undefined;
    const main: DataColumn<T> = {
      ...first,
      fixed: undefined,
      ellipsis: false,
      render: (value: unknown, row: T, index: number) => (
        <div>
          {cellValue(first, row, index)}
          {keyFields.length > 0 && (
            <dl style={{ margin: '4px 0 0' }} data-testid="row-fields">
              {keyFields.map((c) => (
                <div key={c.key} style={{ display: 'flex', gap: 6, alignItems: 'baseline', flexWrap: 'wrap' }}>
                  <dt style={{ fontSize: 12, color: token.colorTextSecondary }}>{c.title as ReactNode}</dt>
                  <dd style={{ margin: 0 }} data-testid={`row-field-${c.key}`}>
                    {cellValue(c, row, index)}
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {actionsInside && <div style={{ marginTop: 4 }}>{cellValue(actionsInside, row, index)}</div>}
        </div>
      ),
    };
    return actions && !actionsInside ? [main, actions] : [main];
  }, [first, rest, token.colorTextSecondary]);

  const width = useMemo(
    () =>
      desktopColumns.reduce((sum, c) => sum + c.width, 0) +
      (table.rowSelection ? SELECTION_WIDTH : 0) +
      (table.expandable?.expandedRowRender ? Number(table.expandable.columnWidth ?? EXPAND_WIDTH) : 0),
    [desktopColumns, table.rowSelection, table.expandable],
  );

  const optional = rest.filter((c) => c.key !== ACTIONS);
  const chooser = !mobile && optional.length > 0 && (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('tables:columnsTitle')}
      content={
        <div data-testid="column-chooser-panel" style={{ maxWidth: 260 }}>
          <Space orientation="vertical" size={4}>
            {optional.map((c) => (
              <Checkbox
                key={c.key}
                checked={shownBy(c, choice, false)}
                onChange={(e) => setChoice({ ...choice, [c.key]: e.target.checked })}
                data-testid={`column-toggle-${c.key}`}
              >
                {c.title as ReactNode}
              </Checkbox>
            ))}
          </Space>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 0 4px' }}>
            {t('tables:columnsHint')}
          </Typography.Paragraph>
          <Button size="small" onClick={() => setChoice({})} data-testid="column-chooser-reset">
            {t('tables:columnsReset')}
          </Button>
        </div>
      }
    >
      <Button icon={<SettingOutlined />} data-testid="column-chooser">
        {t('tables:columns')}
      </Button>
    </Popover>
  );

  return (
    <>
      {(toolbar || chooser) && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', justifyContent: 'space-between', marginBottom: 12 }}>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>{toolbar}</div>
          {chooser}
        </div>
      )}
      <Table<T>
        {...table}
        columns={mobile ? phoneColumns : desktopColumns}
        scroll={mobile ? undefined : { x: width }}
        data-table-id={tableId}
      />
    </>
  );
}
