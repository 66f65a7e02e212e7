import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Form, Input, Popconfirm, Space, Table, Typography } from 'antd';
import { DeleteOutlined, MailOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, MAX_EMAILS, userAdminRoutes } from '@iot/contract/plain';
import type { EmailDto } from '@iot/contract';
import { feedbackMessage } from '../lib/feedback';
import { parseTime } from '../lib/format';
import { api } from '../lib/api';
import { ApiError, describeError, reportError } from '../lib/http';
import { userKeys } from '../lib/query-keys';

interface Props {
  userId: number;
  /** Add and delete (own emails, or another user's with an edit code). */
  canEdit: boolean;
}

/**
 * A user's linked emails (§3, §5: at most 3). The limit is the server's rule: a fourth address is
 * sent and the server's refusal is shown, so the console never disagrees with the API.
 */
export function EmailManager({ userId, canEdit }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ email: string }>();
  const [adding, setAdding] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { data: emails = [], isFetching } = useQuery({
    queryKey: userKeys.emails(userId),
    queryFn: () => api(userAdminRoutes.emails, { query: { id: userId } }),
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: userKeys.emails(userId) });

  const add = async ({ email }: { email: string }) => {
    setAdding(true);
    setRefusal(null);
    try {
      await api(userAdminRoutes.addEmail, { body: { userId, email: email.trim() }, silent: true });
      feedbackMessage().success(t('emails:added'));
      form.resetFields();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === ErrorCode.CONFLICT || err.code === ErrorCode.VALIDATION || err.code === ErrorCode.FORBIDDEN) {
        // The server's refusal (the fourth address, a duplicate), in the UI language.
        const text = describeError(err);
        setRefusal(text);
        feedbackMessage().error(text);
      } else reportError(err);
    } finally {
      setAdding(false);
      void refresh();
    }
  };

  const remove = async (id: number) => {
    try {
      await api(userAdminRoutes.removeEmail, { query: { id } });
      feedbackMessage().success(t('emails:deleted'));
      setRefusal(null);
    } catch {
      // reported by the http client
    } finally {
      void refresh();
    }
  };

  return (
    <div data-testid="email-manager">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('emails:hint', { count: emails.length, max: MAX_EMAILS })}
      </Typography.Paragraph>
      <Table<EmailDto>
        size="small"
        bordered
        rowKey="id"
        loading={isFetching}
        dataSource={emails}
        pagination={false}
        showHeader={false}
        locale={{ emptyText: t('emails:empty') }}
        data-testid="email-list"
        onRow={(item) => ({ 'data-testid': `email-item-${item.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            key: 'email',
            render: (_, item) => (
              <Space>
                <MailOutlined />
                <span>{item.email}</span>
              </Space>
            ),
          },
          {
            key: 'createdAt',
            width: 170,
            render: (_, item) => (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {parseTime(item.createdAt)}
              </Typography.Text>
            ),
          },
          ...(canEdit
            ? [
                {
                  key: 'actions',
                  width: 90,
                  align: 'right' as const,
                  render: (_: unknown, item: EmailDto) => (
                    <Popconfirm
                      title={t('emails:deleteConfirm', { email: item.email })}
                      okText={t('common:confirm')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ 'data-testid': 'confirm-ok' } as Record<string, string>}
                      onConfirm={() => remove(item.id)}
                    >
                      <Button
                        type="link"
                        danger
                        size="small"
                        icon={<DeleteOutlined />}
                        data-testid={`email-delete-${item.id}`}
                      >
                        {t('crud:delete')}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
      {canEdit && (
        <Form<{ email: string }>
          form={form}
          layout="inline"
          onFinish={(values) => void add(values)}
          style={{ marginTop: 12, rowGap: 8 }}
          data-testid="email-form"
        >
          <Form.Item
            name="email"
            style={{ flex: 1, minWidth: 220 }}
            rules={[
              { required: true, message: t('emails:required') },
              { type: 'email', message: t('emails:invalid') },
            ]}
          >
            <Input placeholder={t('emails:placeholder')} autoComplete="email" data-testid="email-input" />
          </Form.Item>
          <Form.Item style={{ marginInlineEnd: 0 }}>
            <Button type="primary" htmlType="submit" loading={adding} icon={<PlusOutlined />} data-testid="email-add">
              {t('emails:add')}
            </Button>
          </Form.Item>
        </Form>
      )}
      {refusal && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="email-error"
          title={refusal}
          closable={{ onClose: () => setRefusal(null) }}
        />
      )}
    </div>
  );
}
