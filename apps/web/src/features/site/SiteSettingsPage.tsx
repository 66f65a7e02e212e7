import { useState } from 'react';
import { Alert, Button, Card, ColorPicker, Form, Input, Space, Tabs, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, PATTERNS, SITE_LIMITS } from '@iot/contract/plain';
import type { Language, SiteConfigEdit } from '@iot/contract';
import { PageSpin } from '../../components/PageSpin';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, describeError } from '../../lib/http';
import { useSiteConfig } from '../../lib/site';
import { useSaveSite } from './api';

type Values = SiteConfigEdit;

/** The localised texts (§1): the bare name is Chinese, the others carry En, Es, Ja. */
const TEXTS = ['title', 'company', 'copyright', 'address'] as const;
const SUFFIX: Record<Language, '' | 'En' | 'Es' | 'Ja'> = { zh: '', en: 'En', es: 'Es', ja: 'Ja' };
const COLOURS = ['particleLogo', 'particleBackground', 'particleButton', 'particleFooter'] as const;
const { phone: PHONE, siteLogo: LOGO } = PATTERNS;

/** The language tab of a localised field (`addressEs` → es), or undefined for the others. */
function languageOf(field: string): Language | undefined {
  const text = TEXTS.find((f) => field.startsWith(f));
  if (!text) return undefined;
  return LANGUAGES.find((l) => `${text}${SUFFIX[l]}` === field);
}

/**
 * The super administrator's site settings (issue #39): the console's title, company, copyright and
 * address in the four languages, contact telephone and e-mail, logo and the login page's colours.
 * Everyone sees them, on the login page first: every field is sent and stored at once.
 */
export default function SiteSettingsPage() {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const save = useSaveSite();
  const [form] = Form.useForm<Values>();
  const [tab, setTab] = useState<Language>('zh');
  const [saving, setSaving] = useState(false);
  const logo = Form.useWatch('logo', form);

  if (config.isPending) return <PageSpin />;
  if (config.isError) return <Alert type="error" showIcon message={t('site:loadFailed')} data-testid="site-load-error" />;
  const { map: _map, ...initial } = config.data;

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await save(values);
      feedbackMessage().success(t('site:saved'));
    } catch (err) {
      const field = err instanceof ApiError ? (err.data as { field?: unknown } | null)?.field : undefined;
      if (err instanceof ApiError && typeof field === 'string' && field in initial) {
        const lang = languageOf(field);
        if (lang) setTab(lang);
        form.setFields([{ name: field as keyof Values, errors: [describeError(err)] }]);
      } else {
        feedbackMessage().error(err instanceof ApiError ? describeError(err) : t('errors:hasError'));
      }
    } finally {
      setSaving(false);
    }
  };

  const readLogo = (file: File) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      if (url.length > SITE_LIMITS.logo) {
        feedbackMessage().error(t('site:logoTooBig', { kb: Math.floor((SITE_LIMITS.logo * 3) / 4 / 1024) }));
        return;
      }
      form.setFieldValue('logo', url);
    };
    reader.readAsDataURL(file);
    return false;
  };

  const text = (field: (typeof TEXTS)[number], lang: Language) => {
    const name = `${field}${SUFFIX[lang]}` as keyof Values;
    const required = field === 'title' && (lang === 'zh' || lang === 'en');
    return (
      <Form.Item
        key={name}
        name={name}
        label={t(`site:fields.${field}`)}
        rules={[
          { required, whitespace: true, message: t('site:titleRequired') },
          { max: SITE_LIMITS[field === 'title' ? 'title' : field], message: t('site:tooLong', { max: SITE_LIMITS[field] }) },
        ]}
      >
        <Input data-testid={`site-${name}`} />
      </Form.Item>
    );
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={(v) => void submit(v)}
      style={{ maxWidth: 760 }}
      data-testid="site-form"
    >
      <Alert type="info" showIcon message={t('site:hint')} style={{ marginBottom: 16 }} />
      <Card size="small" title={<h2 className="dash-card-title">{t('site:texts')}</h2>} style={{ marginBottom: 16 }}>
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as Language)}
          items={LANGUAGES.map((lang) => ({
            key: lang,
            label: t(`common:languages.${lang}`),
            // Every language's fields stay registered, so a save sends them all.
            forceRender: true,
            children: TEXTS.map((field) => text(field, lang)),
          }))}
          data-testid="site-language-tabs"
        />
      </Card>
      <Card size="small" title={<h2 className="dash-card-title">{t('site:contact')}</h2>} style={{ marginBottom: 16 }}>
        <Form.Item
          name="contactTel"
          label={t('site:fields.contactTel')}
          rules={[{ pattern: PHONE, message: t('site:telPattern') }, { max: SITE_LIMITS.tel, message: t('site:tooLong', { max: SITE_LIMITS.tel }) }]}
        >
          <Input data-testid="site-contactTel" />
        </Form.Item>
        <Form.Item name="email" label={t('site:fields.email')} rules={[{ type: 'email', message: t('site:emailInvalid') }]}>
          <Input data-testid="site-email" />
        </Form.Item>
      </Card>
      <Card size="small" title={<h2 className="dash-card-title">{t('site:look')}</h2>} style={{ marginBottom: 16 }}>
        <Form.Item label={t('site:fields.logo')} extra={t('site:logoHint')}>
          <Space align="start" wrap>
            <Form.Item name="logo" noStyle rules={[{ pattern: LOGO, message: t('site:logoPattern') }]}>
              <Input style={{ width: 360 }} aria-label={t('site:fields.logo')} data-testid="site-logo" />
            </Form.Item>
            <Upload accept="image/png,image/jpeg,image/webp,image/svg+xml" showUploadList={false} beforeUpload={readLogo}>
              <Button data-testid="site-logo-upload">{t('site:logoUpload')}</Button>
            </Upload>
            {logo && LOGO.test(logo) && <img src={logo} alt={t('site:logoPreview')} style={{ height: 40, maxWidth: 160 }} data-testid="site-logo-preview" />}
          </Space>
        </Form.Item>
        <Space wrap size="large">
          {COLOURS.map((name) => (
            <Form.Item
              key={name}
              name={name}
              label={t(`site:fields.${name}`)}
              getValueFromEvent={(color: { toHexString: () => string }) => color.toHexString().toUpperCase()}
            >
              <ColorPicker disabledAlpha showText aria-label={t(`site:fields.${name}`)} data-testid={`site-${name}`} />
            </Form.Item>
          ))}
        </Space>
      </Card>
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="site-save">
          {t('site:save')}
        </Button>
        <Button onClick={() => form.resetFields()} data-testid="site-reset">
          {t('site:reset')}
        </Button>
      </Space>
    </Form>
  );
}
