import { useState } from 'react';
import { Pagination, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { LoginRecord } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { FIRST_SCREEN, useLoginHistory } from './api';

const RESULT_COLORS: Record<string, string> = {
  success: 'success',
  failure: 'error',
  lockout: 'warning',
  logout: 'default',
};

/** The user's recent logins (GET /user/logins), paged by the server. */
export function LoginHistory() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(FIRST_SCREEN.limit);
  const { data, isFetching } = useLoginHistory(page, limit);

  const columns: ColumnsType<LoginRecord> = [
    {
      title: t('dashboard:logins.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (value: string) => parseTime(value) ?? '',
    },
    {
      title: t('dashboard:logins.result'),
      dataIndex: 'result',
      width: 120,
      render: (value: string) => (
        <Tag color={RESULT_COLORS[value] ?? 'default'}>
          {t(`dashboard:logins.results.${value}`, { defaultValue: value })}
        </Tag>
      ),
    },
    { title: t('dashboard:logins.address'), dataIndex: 'ip', width: 160 },
    {
      title: t('dashboard:logins.userAgent'),
      dataIndex: 'userAgent',
      render: (value: string) => (
        <Typography.Text ellipsis={{ tooltip: value }} style={{ maxWidth: 480 }}>
          {value}
        </Typography.Text>
      ),
    },
  ];

  // The table scrolls sideways inside its own region, which the keyboard can reach and scroll
  // (antd's scrolling box is not focusable); the pager stays outside it, in view on a phone.
  return (
    <>
      <div
        role="region"
        tabIndex={0}
        aria-label={t('dashboard:logins.region')}
        className="scroll-region"
        data-testid="login-history-region"
      >
        <Table<LoginRecord>
          rowKey={(r) => `${r.createdAt}-${r.ip}-${r.result}`}
          size="middle"
          loading={isFetching}
          columns={columns}
          dataSource={data?.items ?? []}
          // Fixed: the columns keep their widths inside the 720 px and the region scrolls.
          tableLayout="fixed"
          style={{ minWidth: 720 }}
          data-testid="login-history"
          pagination={false}
        />
      </div>
      <Pagination
        align="end"
        style={{ marginTop: 16 }}
        current={page}
        pageSize={limit}
        total={data?.total ?? 0}
        showSizeChanger
        pageSizeOptions={[10, 20, 50]}
        showTotal={(total) => t('common:total', { total })}
        onChange={(p, size) => {
          setPage(size === limit ? p : 1);
          setLimit(size);
        }}
      />
    </>
  );
}
