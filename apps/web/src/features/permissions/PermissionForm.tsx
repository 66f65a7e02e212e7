import { Form, Input, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACL_LIMITS, PATTERNS } from '@iot/contract/plain';
import type { PermissionDto } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { isConsoleCode } from '../../lib/acl-labels';
import type { PermissionInput } from './api';
import type { MenuTreeOption } from './menu-tree';

interface Props {
  open: boolean;
  permission?: PermissionDto;
  menuTree: MenuTreeOption[];
  onCancel: () => void;
  onSubmit: (values: PermissionInput) => Promise<unknown>;
}

export function PermissionForm({ open, permission, menuTree, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  // The console's own codes are declared by its routes: the server refuses to rename them.
  const lockedCode = permission ? isConsoleCode(permission.identification) : false;
  return (
    <FormModal<PermissionInput>
      open={open}
      title={permission ? t('permissions:edit') : t('permissions:add')}
      initialValues={permission ? { name: permission.name, identification: permission.identification, menuId: permission.menuId } : {}}
      onCancel={onCancel}
      onSubmit={onSubmit}
      testId="permission-form"
    >
      <Form.Item name="name" label={t('permissions:name')} rules={[{ required: true, whitespace: true, message: t('crud:nameRequired') }]}>
        <Input maxLength={ACL_LIMITS.name} data-testid="field-name" />
      </Form.Item>
      <Form.Item
        name="identification"
        label={t('permissions:identification')}
        extra={lockedCode ? t('permissions:builtinCodeHint') : t('permissions:identificationHint')}
        rules={[
          { required: true, whitespace: true, message: t('crud:identificationRequired') },
          { pattern: PATTERNS.identification, message: t('crud:identificationPattern') },
        ]}
      >
        <Input maxLength={ACL_LIMITS.identification} disabled={lockedCode} data-testid="field-identification" />
      </Form.Item>
      <Form.Item name="menuId" label={t('permissions:menu')} rules={[{ required: true, message: t('permissions:menuRequired') }]}>
        <TreeSelect
          treeData={menuTree}
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll
          placeholder={t('permissions:menuRequired')}
          data-testid="field-menuId"
        />
      </Form.Item>
    </FormModal>
  );
}
