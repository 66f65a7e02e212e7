import { Col, Form, Input, Radio, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_STYLES, LANGUAGES, PASSWORD_MIN, PATTERNS, USER_LIMITS } from '@iot/contract/plain';
import type { UserDto, UserKind } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { roleLabel } from '../../lib/acl-labels';
import { currentLanguage } from '../../lib/i18n';
import type { UserOption } from '@iot/contract';
import type { RoleOption, UserCreateInput } from './api';
import { ParentUserSelect } from './ParentUserSelect';

export type UserFormValues = Omit<UserCreateInput, 'username' | 'password'> & { username?: string; password?: string };

interface Props {
  open: boolean;
  kind: UserKind;
  /** The edited user, or undefined to create one. */
  user?: UserDto;
  /** The signed-in user: default parent of a new user; some fields of oneself are fixed. */
  me: UserOption;
  roles: RoleOption[];
  onCancel: () => void;
  onSubmit: (values: UserFormValues) => Promise<unknown>;
}

export function UserForm({ open, kind, user, me, roles, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  const self = user?.id === me.id;
  /**
   * A company account's name, address and number are required where company accounts are managed
   * (/sys/user); an agent's own sub-users (/user/agent, which defaults to the company kind) are
   * often people, so there they are optional, as the server has them.
   */
  const companyRequired = (type: unknown) => type === 1 && kind !== 'agent';
  const initialValues: Partial<UserFormValues> = user
    ? {
        type: user.type === 0 ? 0 : 1,
        roleId: user.roleId,
        parentId: user.parentId ?? undefined,
        corporateName: user.corporateName,
        corporateAddress: user.corporateAddress,
        contactNumber: user.contactNumber,
        dashboardStyle: user.dashboardStyle,
        language: user.language,
        enabled: user.enabled,
      }
    : {
        type: kind === 'admin' ? 0 : 1,
        parentId: me.id,
        corporateName: '',
        corporateAddress: '',
        contactNumber: '',
        dashboardStyle: 'default',
        // The creator's console language: the person setting up the account usually shares it.
        language: currentLanguage(),
        enabled: true,
      };
  // The user's own role stays selectable even when the caller could not give it.
  const roleOptions = [...roles];
  if (user && !roleOptions.some((r) => r.id === user.roleId)) {
    roleOptions.push({ id: user.roleId, name: user.roleName, identification: user.roleIdentification });
  }
  const parentInitial = user
    ? user.parentId !== null
      ? { id: user.parentId, name: user.parentName ?? String(user.parentId) }
      : undefined
    : me;
  const hasParent = !user || user.parentId !== null;

  return (
    <FormModal<UserFormValues>
      open={open}
      width={760}
      title={user ? t('users:edit') : t('users:add')}
      initialValues={initialValues}
      onCancel={onCancel}
      onSubmit={onSubmit}
      testId="user-form"
    >
      {(form) => (
        <Row gutter={16}>
          {!user && (
            <>
              <Col xs={24} md={12}>
                <Form.Item
                  name="username"
                  label={t('users:username')}
                  rules={[
                    { required: true, whitespace: true, message: t('users:usernameRequired') },
                    { pattern: PATTERNS.username, message: t('users:usernamePattern') },
                    { max: USER_LIMITS.username },
                  ]}
                >
                  <Input autoComplete="off" data-testid="field-username" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="password"
                  label={t('users:password')}
                  rules={[
                    { required: true, message: t('users:passwordRequired') },
                    { min: PASSWORD_MIN, message: t('users:passwordMin') },
                  ]}
                >
                  <Input.Password autoComplete="new-password" data-testid="field-password" />
                </Form.Item>
              </Col>
            </>
          )}
          {user && (
            <Col xs={24}>
              <Form.Item label={t('users:username')}>
                <Input value={user.username} disabled data-testid="field-username" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item name="type" label={t('users:type')} rules={[{ required: true, message: t('users:typeRequired') }]}>
              <Radio.Group
                disabled={self}
                data-testid="field-type"
                options={[
                  { value: 0, label: t('users:types.0') },
                  { value: 1, label: t('users:types.1') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="roleId" label={t('users:role')} rules={[{ required: true, message: t('users:roleRequired') }]}>
              <Select
                disabled={self}
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('users:roleRequired')}
                options={roleOptions.map((r) => ({ value: r.id, label: roleLabel(r.identification, r.name) }))}
                data-testid="field-roleId"
              />
            </Form.Item>
          </Col>
          {hasParent && (
            <Col xs={24} md={12}>
              <Form.Item
                name="parentId"
                label={t('users:parent')}
                rules={[{ required: true, message: t('users:parentRequired') }]}
              >
                <ParentUserSelect initial={parentInitial} exclude={user?.id} disabled={self} />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item noStyle dependencies={['type']}>
              {() => {
                const company = companyRequired(form.getFieldValue('type'));
                return (
                  <Form.Item
                    name="corporateName"
                    label={t('users:corporateName')}
                    rules={[{ required: company, whitespace: true, message: t('users:corporateNameRequired') }, { max: USER_LIMITS.corporateName }]}
                  >
                    <Input data-testid="field-corporateName" />
                  </Form.Item>
                );
              }}
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item noStyle dependencies={['type']}>
              {() => (
                <Form.Item
                  name="corporateAddress"
                  label={t('users:corporateAddress')}
                  rules={[
                    { required: companyRequired(form.getFieldValue('type')), whitespace: true, message: t('users:corporateAddressRequired') },
                    { max: USER_LIMITS.corporateAddress },
                  ]}
                >
                  <Input data-testid="field-corporateAddress" />
                </Form.Item>
              )}
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item noStyle dependencies={['type']}>
              {() => (
                <Form.Item
                  name="contactNumber"
                  label={t('users:contactNumber')}
                  rules={[
                    { required: companyRequired(form.getFieldValue('type')), whitespace: true, message: t('users:contactNumberRequired') },
                    { pattern: PATTERNS.phone, message: t('users:contactNumberPattern') },
                    { max: USER_LIMITS.contactNumber },
                  ]}
                >
                  <Input data-testid="field-contactNumber" />
                </Form.Item>
              )}
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="dashboardStyle" label={t('users:dashboardStyle')}>
              <Select
                options={DASHBOARD_STYLES.map((s) => ({ value: s, label: t(`users:dashboardStyles.${s}`) }))}
                data-testid="field-dashboardStyle"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="language" label={t('users:language')}>
              <Select
                options={LANGUAGES.map((l) => ({ value: l, label: t(`users:languages.${l}`) }))}
                data-testid="field-language"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="enabled" label={t('users:enabled')} valuePropName="checked">
              <Switch disabled={self} data-testid="field-enabled" />
            </Form.Item>
          </Col>
        </Row>
      )}
    </FormModal>
  );
}
