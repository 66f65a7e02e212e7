import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN, SESSION_CODES } from '@iot/contract/plain';
import { feedbackMessage } from '../lib/feedback';
import { ApiError, describeError, reportError } from '../lib/http';
import { changePassword, type ChangePasswordInput } from '../lib/session';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** §5 change-password dialog: old, new and repeated new password. */
export function ChangePasswordDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangePasswordInput>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    let values: ChangePasswordInput;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    setSaving(true);
    try {
      // The server's message is English (for API users); the toast speaks the UI language.
      const { endedSessions } = await changePassword(values);
      feedbackMessage().success(
        endedSessions > 0
          ? t('auth:password.changedEnded', { count: endedSessions })
          : t('auth:password.changed'),
      );
      form.resetFields();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && SESSION_CODES.includes(err.code)) reportError(err);
      else {
        const reason = err instanceof ApiError ? describeError(err) : '';
        feedbackMessage().error(
          reason ? `${t('auth:password.failed')}: ${reason}` : t('auth:password.failed'),
        );
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('auth:password.title')}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      okButtonProps={{ 'data-testid': 'change-password-submit' } as Record<string, string>}
      cancelButtonProps={{ 'data-testid': 'change-password-cancel' } as Record<string, string>}
    >
      <Form<ChangePasswordInput>
        form={form}
        layout="vertical"
        data-testid="change-password-form"
        onFinish={() => void submit()}
      >
        <Form.Item
          name="oldPassword"
          label={t('auth:password.old')}
          rules={[{ required: true, message: t('auth:password.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="change-password-old" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('auth:password.new')}
          rules={[
            { required: true, message: t('auth:password.newRequired') },
            { min: PASSWORD_MIN, message: t('login:passwordMin') },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="change-password-new" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('auth:password.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('auth:password.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('newPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('auth:password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="change-password-confirm" />
        </Form.Item>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
    </Modal>
  );
}
