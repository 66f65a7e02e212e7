import { useState } from 'react';
import { Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { LoginRecord } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { useLoginHistory } from './api';

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
  const [limit, setLimit] = useState(10);
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

  return (
    <Table<LoginRecord>
      rowKey={(r) => `${r.createdAt}-${r.ip}-${r.result}`}
      size="middle"
      loading={isFetching}
      columns={columns}
      dataSource={data?.items ?? []}
      scroll={{ x: 720 }}
      data-testid="login-history"
      pagination={{
        current: page,
        pageSize: limit,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50],
        showTotal: (total) => t('common:total', { total }),
        onChange: (p, size) => {
          setPage(size === limit ? p : 1);
          setLimit(size);
        },
      }}
    />
  );
}
