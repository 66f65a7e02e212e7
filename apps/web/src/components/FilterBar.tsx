import { useEffect, useRef, type ReactNode } from 'react';
import dayjs from 'dayjs';
import { Button, Form, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useRepeatSearch } from '../lib/use-repeat-search';

interface Props<F> {
  /** The filter fields: `Form.Item`s with a `name`. */
  children: ReactNode;
  onSearch: (values: F) => void;
  /** Buttons shown at the right end of the bar (e.g. "Add"). */
  extra?: ReactNode;
  /** The fields' defaults: what Reset goes back to. */
  initialValues?: Partial<F>;
  /**
   * The filters applied now, when the list keeps them in its address: the fields show them, and
   * follow when the address changes (Back, a tab in the tags bar, a link).
   */
  values?: Partial<F>;
  testId?: string;
}

/** Drops empty strings so that a cleared input removes its filter. */
function clean<F>(values: F): F {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && !v.trim()) continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out as F;
}

/** Filter values compared as applied: empty ones dropped, dates by day (a picker's time of day differs). */
function comparable(values: object): string {
  const plain = (v: unknown): unknown => (dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : Array.isArray(v) ? v.map(plain) : v);
  return JSON.stringify(
    Object.entries(clean(values))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, plain(v)]),
  );
}

/** The filter row above a list: fields, Search and Reset, and the page's own buttons. */
export function FilterBar<F extends object>({ children, onSearch, extra, initialValues, values, testId = 'filter-bar' }: Props<F>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<F>();
  const repeat = useRepeatSearch(clean(values ?? initialValues ?? {}));
  const valuesKey = values ? JSON.stringify(values) : undefined;
  const shown = useRef<Partial<F> | undefined>(undefined);
  useEffect(() => {
    if (!values) return;
    const previous = shown.current;
    shown.current = values;
    // The fields follow the address when they still show the filters applied before: a Back or
    // a tab. Fields changed since (a filter picked while the last search was still on its way)
    // are the user's and stay.
    if (previous !== undefined && comparable(form.getFieldsValue()) !== comparable(previous)) return;
    form.resetFields();
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- values by value
  }, [valuesKey, form]);
  const submit = (values: F) => {
    repeat(values);
    onSearch(values);
  };
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between', marginBottom: 16 }}>
      <Form<F>
        form={form}
        layout="inline"
        initialValues={initialValues}
        onFinish={(values) => submit(clean(values))}
        data-testid={testId}
        style={{ rowGap: 8 }}
      >
        {children}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="filter-search">
              {t('crud:search')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              data-testid="filter-reset"
              onClick={() => {
                form.resetFields();
                submit(clean(form.getFieldsValue()));
              }}
            >
              {t('crud:reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {extra && <Space wrap>{extra}</Space>}
    </div>
  );
}
