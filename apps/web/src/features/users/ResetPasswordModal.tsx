import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '@iot/contract/plain';
import type { UserDto } from '@iot/contract';
import { FormModal } from '../../components/FormModal';

interface Values {
  password: string;
  confirm: string;
}

interface Props {
  user: UserDto | null;
  onCancel: () => void;
  onSubmit: (password: string) => Promise<unknown>;
}

/** Sets another user's password (ends its sessions, lifts a lock). */
export function ResetPasswordModal({ user, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  return (
    <FormModal<Values>
      open={user !== null}
      title={t('users:resetPasswordOf', { name: user?.username ?? '' })}
      width={440}
      onCancel={onCancel}
      onSubmit={(v) => onSubmit(v.password)}
      testId="reset-password-form"
    >
      <Form.Item
        name="password"
        label={t('users:newPassword')}
        extra={t('users:resetPasswordHint')}
        rules={[
          { required: true, message: t('users:passwordRequired') },
          { min: PASSWORD_MIN, message: t('users:passwordMin') },
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="field-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('users:confirmPassword')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('users:confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('users:mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="field-confirm" />
      </Form.Item>
    </FormModal>
  );
}
