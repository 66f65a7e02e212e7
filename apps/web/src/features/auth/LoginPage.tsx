import { useEffect, useState } from 'react';
import { Button, Form, Input, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN, type LoginBody } from '@iot/contract';
import { changeLanguage } from '../../lib/language';
import { login } from '../../lib/session';
import { LangSelect } from '../../components/LangSelect';
import { SiteContactInfo } from '../../components/SiteContactInfo';
import { readableOn } from '../../lib/contrast';
import { currentLanguage } from '../../lib/i18n';
import { safeRedirect } from '../../lib/redirect';
import { siteText, useSiteConfig } from '../../lib/site';
import { useCaptcha } from './api';
import { ParticleBackground } from './ParticleBackground';
import { CaptchaImage } from './CaptchaImage';

/** The login form: the body of POST /user/login but the captcha key, which the challenge gives. */
type LoginForm = Omit<LoginBody, 'key'>;

/** Colours used until /config answers (the spec's blue on a dark night sky). */
const FALLBACK = { logo: '#FFFFFF', background: '#2D3A4B', button: '#409EFF', footer: '#C0C4CC' };

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<LoginForm>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const { data: config } = useSiteConfig();
  const captcha = useCaptcha();
  const captchaRequired = captcha.data?.required ?? true;
  const lang = currentLanguage();
  const title = siteText(config, 'title', lang) || t('login:title');
  const background = config?.particleBackground ?? FALLBACK.background;
  // The site's colours, moved just as far as WCAG AA's 4.5:1 needs: text against the night sky,
  // the button against its white label.
  const colours = {
    logo: readableOn(config?.particleLogo ?? FALLBACK.logo, background),
    background,
    button: readableOn(config?.particleButton ?? FALLBACK.button, '#FFFFFF'),
    footer: readableOn(config?.particleFooter ?? FALLBACK.footer, background),
  };

  useEffect(() => {
    document.title = `${t('route:login')} - ${title}`;
  }, [t, title, i18n.language]);

  const onFinish = async (values: LoginForm) => {
    setSubmitting(true);
    try {
      await login({
        username: values.username.trim(),
        password: values.password,
        captcha: values.captcha?.trim() ?? '',
        key: captcha.data?.key ?? '',
      });
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The http client already showed why; a used captcha is spent, so fetch a new one.
      form.setFieldValue('captcha', '');
      void captcha.refetch();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    // The sky's colour is also the page's (under the canvas), so contrast checks see what readers see.
    <div style={{ position: 'relative', minHeight: '100vh', overflow: 'hidden', background: colours.background }}>
      <ParticleBackground background={colours.background} particle={colours.logo} />
      <div style={{ position: 'absolute', top: 16, right: 20, zIndex: 2, color: colours.logo }}>
        <LangSelect showLabel onChange={changeLanguage} />
      </div>
      <main
        style={{
          position: 'relative',
          zIndex: 1,
          minHeight: '100vh',
          boxSizing: 'border-box',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          padding: '24px 16px 96px',
        }}
      >
        <div style={{ textAlign: 'center', marginBottom: 24, color: colours.logo }}>
          {config?.logo && (
            <img src={config.logo} alt="" style={{ height: 56, maxWidth: 240, marginBottom: 12 }} />
          )}
          <h1 style={{ margin: 0, fontSize: 26, fontWeight: 600, color: colours.logo }}>{title}</h1>
        </div>
        <div
          style={{
            width: '100%',
            maxWidth: 380,
            padding: '28px 28px 8px',
            borderRadius: 8,
            background: 'rgba(255,255,255,0.08)',
            border: '1px solid rgba(255,255,255,0.15)',
            backdropFilter: 'blur(2px)',
          }}
        >
          <Form<LoginForm>
            form={form}
            size="large"
            autoComplete="on"
            onFinish={(v) => void onFinish(v)}
            requiredMark={false}
            data-testid="login-form"
          >
            <Form.Item
              name="username"
              rules={[{ required: true, whitespace: true, message: t('login:usernameRequired') }]}
            >
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login:username')}
                autoComplete="username"
                data-testid="login-username"
              />
            </Form.Item>
            <Form.Item
              name="password"
              rules={[
                { required: true, message: t('login:passwordRequired') },
                { min: PASSWORD_MIN, message: t('login:passwordMin') },
              ]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('login:password')}
                autoComplete="current-password"
                data-testid="login-password"
              />
            </Form.Item>
            {captchaRequired && (
              <Form.Item
                name="captcha"
                rules={[{ required: true, whitespace: true, message: t('login:captchaRequired') }]}
              >
                <Input
                  prefix={<SafetyOutlined />}
                  placeholder={t('login:captcha')}
                  autoComplete="off"
                  maxLength={16}
                  data-testid="login-captcha"
                  suffix={
                    <CaptchaImage
                      svg={captcha.data?.image}
                      failed={captcha.isError}
                      loading={captcha.isFetching}
                      onRefresh={() => void captcha.refetch()}
                    />
                  }
                />
              </Form.Item>
            )}
            <Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                block
                loading={submitting}
                data-testid="login-submit"
                style={{ background: colours.button, borderColor: colours.button }}
              >
                {t('login:submit')}
              </Button>
            </Form.Item>
          </Form>
        </div>
      </main>
      <footer
        style={{
          position: 'absolute',
          bottom: 16,
          left: 0,
          right: 0,
          zIndex: 1,
          textAlign: 'center',
          color: colours.footer,
          fontSize: 12,
          padding: '0 16px',
        }}
        data-testid="login-footer"
      >
        <SiteContactInfo variant="line" color={colours.footer} />
        <Typography.Text style={{ color: colours.footer, fontSize: 12 }}>
          {[siteText(config, 'company', lang), siteText(config, 'copyright', lang)]
            .filter(Boolean)
            .join(' · ')}
        </Typography.Text>
      </footer>
    </div>
  );
}
