import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PATTERNS, USER_LIMITS, userRoutes } from '@iot/contract/plain';
import type { UserInfo } from '@iot/contract';
import { patchUser } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { api } from '../../lib/api';

type Values = Pick<UserInfo, 'corporateName' | 'corporateAddress' | 'contactNumber'>;

/** The caller's own company details (POST /user/preferences). */
export function CompanyDetailsForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  // Company accounts (type 1) are described by these details: they may not be left empty.
  const required = user.type === 1;

  const save = async (values: Values) => {
    const body = {
      corporateName: values.corporateName?.trim() ?? '',
      corporateAddress: values.corporateAddress?.trim() ?? '',
      contactNumber: values.contactNumber?.trim() ?? '',
    };
    setSaving(true);
    try {
      await api(userRoutes.preferences, { body });
      patchUser(body);
      feedbackMessage().success(t('profile:saved'));
    } catch {
      // reported by the http client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      initialValues={{
        corporateName: user.corporateName,
        corporateAddress: user.corporateAddress,
        contactNumber: user.contactNumber,
      }}
      onFinish={(v) => void save(v)}
      data-testid="profile-company-form"
    >
      <Form.Item
        name="corporateName"
        label={t('fields:corporateName')}
        rules={[{ required, whitespace: true, message: t('profile:corporateNameRequired') }, { max: USER_LIMITS.corporateName }]}
      >
        <Input data-testid="field-corporateName" />
      </Form.Item>
      <Form.Item
        name="corporateAddress"
        label={t('fields:corporateAddress')}
        rules={[{ required, whitespace: true, message: t('profile:corporateAddressRequired') }, { max: USER_LIMITS.corporateAddress }]}
      >
        <Input data-testid="field-corporateAddress" />
      </Form.Item>
      <Form.Item
        name="contactNumber"
        label={t('fields:contactNumber')}
        rules={[
          { required, whitespace: true, message: t('profile:contactNumberRequired') },
          { pattern: PATTERNS.phone, message: t('profile:contactNumberPattern') },
          { max: USER_LIMITS.contactNumber },
        ]}
      >
        <Input data-testid="field-contactNumber" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
        {t('profile:save')}
      </Button>
    </Form>
  );
}
