import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN } from '@iot/contract/plain';
import type { LoginBody } from '@iot/contract';
import { changeLanguage } from '../../lib/language';
import { login } from '../../lib/session';
import { LangSelect } from '../../components/LangSelect';
import { SiteContactInfo } from '../../components/SiteContactInfo';
import { Spinner } from '../../components/Spinner';
import { SvgIcon } from '../../components/SvgIcon';
import { readableOn } from '../../lib/contrast';
import { currentLanguage } from '../../lib/i18n';
import { safeRedirect } from '../../lib/redirect';
import { siteText, useSiteConfig } from '../../lib/site';
import { useCaptcha } from './api';
import { ParticleBackground } from './ParticleBackground';
import { CaptchaImage } from './CaptchaImage';
import './login.css';

/** The login form: the body of POST /user/login but the captcha key, which the challenge gives. */
type LoginForm = Omit<LoginBody, 'key'>;
type Field = keyof LoginForm;
type Errors = Partial<Record<Field, string>>;

/** Colours used until /config answers (the spec's blue on a dark night sky). */
const FALLBACK = { logo: '#FFFFFF', background: '#2D3A4B', button: '#409EFF', footer: '#C0C4CC' };
/** Field errors: antd's light red, moved as far as the sky's colour needs for AA. */
const ERROR_TEXT = '#FF7875';

interface InputProps {
  field: Field;
  icon: IconDefinition;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  inputRef: (el: HTMLInputElement | null) => void;
  type?: string;
  autoComplete: string;
  maxLength?: number;
  suffix?: ReactNode;
  errorColor: string;
}

/** An input with its icon, an optional suffix and its error below, tied together for readers. */
function LoginInput({ field, icon, label, value, error, onChange, inputRef, suffix, errorColor, ...rest }: InputProps) {
  const errorId = `login-${field}-error`;
  return (
    <div className="login-field">
      <div className={error ? 'login-input login-input-invalid' : 'login-input'}>
        <SvgIcon icon={icon} style={{ color: 'rgba(0, 0, 0, 0.56)' }} />
        <input
          ref={inputRef}
          name={field}
          value={value}
          placeholder={label}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-testid={`login-${field}`}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
        {suffix}
      </div>
      {error && (
        <div id={errorId} className="login-error" role="alert" style={{ color: errorColor }}>
          {error}
        </div>
      )}
    </div>
  );
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState<LoginForm>({ username: '', password: '', captcha: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
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
    error: readableOn(ERROR_TEXT, background),
  };

  useEffect(() => {
    document.title = `${t('route:login')} - ${title}`;
  }, [t, title, i18n.language]);

  /** The form's rules: what antd's Form checked before (and the server checks again). */
  const check = (field: Field, form: LoginForm): string | undefined => {
    const value = form[field] ?? '';
    if (field === 'username') return value.trim() ? undefined : t('login:usernameRequired');
    if (field === 'password') {
      if (!value) return t('login:passwordRequired');
      return value.length < PASSWORD_MIN ? t('login:passwordMin') : undefined;
    }
    return !captchaRequired || value.trim() ? undefined : t('login:captchaRequired');
  };
  const fields: Field[] = captchaRequired ? ['username', 'password', 'captcha'] : ['username', 'password'];

  const change = (field: Field) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Once the form has been sent, each field is checked again as it is corrected.
    if (submitted) setErrors((e) => ({ ...e, [field]: check(field, next) }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found: Errors = {};
    for (const field of fields) found[field] = check(field, values);
    setErrors(found);
    const invalid = fields.find((f) => found[f]);
    if (invalid) {
      inputs.current[invalid]?.focus();
      return;
    }
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
      setValues((v) => ({ ...v, captcha: '' }));
      void captcha.refetch();
    } finally {
      setSubmitting(false);
    }
  };

  const common = (field: Field) => ({
    field,
    value: values[field] ?? '',
    error: errors[field],
    onChange: change(field),
    inputRef: (el: HTMLInputElement | null) => {
      inputs.current[field] = el;
    },
    errorColor: colours.error,
  });

  return (
    // The sky's colour is also the page's (under the canvas), so contrast checks see what readers see.
    <div style={{ position: 'relative', minHeight: '100vh', overflow: 'hidden', background: colours.background }}>
      <ParticleBackground background={colours.background} particle={colours.logo} />
      <div style={{ position: 'absolute', top: 16, right: 20, zIndex: 2, color: colours.logo }}>
        <LangSelect showLabel onChange={changeLanguage} />
      </div>
      <main className="login-main">
        <div style={{ textAlign: 'center', marginBottom: 24, color: colours.logo }}>
          {config?.logo && <img src={config.logo} alt="" style={{ height: 56, maxWidth: 240, marginBottom: 12 }} />}
          <h1 style={{ margin: 0, fontSize: 26, fontWeight: 600, color: colours.logo }}>{title}</h1>
        </div>
        <div className="login-card">
          <form noValidate autoComplete="on" onSubmit={(e) => void onSubmit(e)} data-testid="login-form">
            <LoginInput {...common('username')} icon={UserOutlined} label={t('login:username')} autoComplete="username" />
            <LoginInput
              {...common('password')}
              icon={LockOutlined}
              label={t('login:password')}
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              suffix={
                <button
                  type="button"
                  className="login-reveal"
                  aria-label={t(showPassword ? 'login:hidePassword' : 'login:showPassword')}
                  title={t(showPassword ? 'login:hidePassword' : 'login:showPassword')}
                  onClick={() => setShowPassword((s) => !s)}
                >
                  <SvgIcon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
                </button>
              }
            />
            {captchaRequired && (
              <LoginInput
                {...common('captcha')}
                icon={SafetyOutlined}
                label={t('login:captcha')}
                autoComplete="off"
                maxLength={16}
                suffix={
                  <CaptchaImage
                    svg={captcha.data?.image}
                    captchaKey={captcha.data?.key}
                    failed={captcha.isError}
                    loading={captcha.isFetching}
                    onRefresh={() => void captcha.refetch()}
                  />
                }
              />
            )}
            {/* Not before the server said whether it asks for a code: a click then would be
                refused as "code required" by a form that has no code field a moment later. */}
            <button
              type="submit"
              className="login-submit"
              disabled={submitting || captcha.isPending}
              aria-busy={submitting || captcha.isPending || undefined}
              data-testid="login-submit"
              style={{ background: colours.button, borderColor: colours.button }}
            >
              {(submitting || captcha.isPending) && <Spinner size={16} decorative />}
              {t('login:submit')}
            </button>
          </form>
        </div>
      </main>
      <footer className="login-footer" style={{ color: colours.footer }} data-testid="login-footer">
        <SiteContactInfo color={colours.footer} />
        <span>
          {[siteText(config, 'company', lang), siteText(config, 'copyright', lang)].filter(Boolean).join(' · ')}
        </span>
      </footer>
    </div>
  );
}
