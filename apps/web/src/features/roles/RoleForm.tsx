import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACL_LIMITS, PATTERNS } from '@iot/contract/plain';
import type { RoleDto } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import type { RoleInput } from './api';

interface Props {
  open: boolean;
  role?: RoleDto;
  onCancel: () => void;
  onSubmit: (values: RoleInput) => Promise<unknown>;
}

export function RoleForm({ open, role, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  return (
    <FormModal<RoleInput>
      open={open}
      title={role ? t('roles:edit') : t('roles:add')}
      initialValues={role ? { name: role.name, identification: role.identification } : {}}
      onCancel={onCancel}
      onSubmit={onSubmit}
      testId="role-form"
    >
      <Form.Item name="name" label={t('roles:name')} rules={[{ required: true, whitespace: true, message: t('crud:nameRequired') }]}>
        <Input maxLength={ACL_LIMITS.name} data-testid="field-name" />
      </Form.Item>
      <Form.Item
        name="identification"
        label={t('roles:identification')}
        extra={role?.builtin ? t('roles:builtinIdentificationHint') : t('roles:identificationHint')}
        rules={[
          { required: true, whitespace: true, message: t('crud:identificationRequired') },
          { pattern: PATTERNS.identification, message: t('crud:identificationPattern') },
        ]}
      >
        <Input maxLength={ACL_LIMITS.identification} disabled={role?.builtin} data-testid="field-identification" />
      </Form.Item>
    </FormModal>
  );
}
