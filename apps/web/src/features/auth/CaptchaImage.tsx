import { useEffect, useRef, type ReactNode } from 'react';
import ReloadOutlined from '@ant-design/icons-svg/es/asn/ReloadOutlined';
import SoundOutlined from '@ant-design/icons-svg/es/asn/SoundOutlined';
import { useTranslation } from 'react-i18next';
import { authRoutes } from '@iot/contract/plain';
import { SvgIcon } from '../../components/SvgIcon';
import { endpointUrl } from '../../lib/download';
import { feedbackMessage } from '../../lib/feedback';
import { Spinner } from '../../components/Spinner';

interface Props {
  svg: string | undefined;
  /** The challenge's key: its spoken form is asked for by it. */
  captchaKey: string | undefined;
  failed: boolean;
  loading: boolean;
  onRefresh: () => void;
}

/**
 * The server's SVG challenge as an image (never injected as markup); a click on it, or the
 * refresh button beside it (the keyboard's way), asks for a new one. The listen button plays the
 * same challenge spoken, fetched by its key (the page never holds the answer).
 */
export function CaptchaImage(props: Props) {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 2 }}>
      <Challenge {...props} />
      <button
        type="button"
        className="login-reveal"
        aria-label={t('login:captchaNew')}
        title={t('login:captchaNew')}
        // Not disabled while loading: a disabled button would drop the keyboard's focus.
        aria-busy={props.loading || undefined}
        onClick={props.onRefresh}
        data-testid="captcha-refresh"
      >
        <SvgIcon icon={ReloadOutlined} />
      </button>
      <Listen captchaKey={props.captchaKey} onRefresh={props.onRefresh} />
    </span>
  );
}

/** Plays the challenge spoken; a new challenge silences the old one's sound. */
function Listen({ captchaKey, onRefresh }: { captchaKey: string | undefined; onRefresh: () => void }) {
  const { t } = useTranslation();
  const playing = useRef<HTMLAudioElement | null>(null);
  useEffect(
    () => () => {
      playing.current?.pause();
      playing.current = null;
    },
    [captchaKey],
  );
  const listen = () => {
    if (!captchaKey) return;
    playing.current?.pause();
    const audio = new Audio(endpointUrl(authRoutes.captchaAudio, { key: captchaKey }));
    playing.current = audio;
    audio.play().catch((err: unknown) => {
      // Stopped by a newer challenge: nothing to say.
      if (playing.current !== audio || (err instanceof DOMException && err.name === 'AbortError')) return;
      // Expired (or no sound device): a new challenge, and say so.
      feedbackMessage().error(t('login:captchaAudioFailed'));
      onRefresh();
    });
  };
  return (
    <button
      type="button"
      className="login-reveal"
      aria-label={t('login:captchaListen')}
      title={t('login:captchaListen')}
      onClick={listen}
      data-testid="captcha-listen"
    >
      <SvgIcon icon={SoundOutlined} />
    </button>
  );
}

function Challenge({ svg, failed, loading, onRefresh }: Omit<Props, 'captchaKey'>): ReactNode {
  const { t } = useTranslation();
  useEffect(() => {
    if (failed) feedbackMessage().error(t('login:captchaFailed'));
  }, [failed, t]);

  const box = {
    width: 110,
    height: 36,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    cursor: 'pointer',
    borderRadius: 4,
    background: '#fff',
    overflow: 'hidden',
  } as const;

  if (loading && !svg) {
    return (
      <span style={box}>
        <Spinner size={14} />
      </span>
    );
  }
  if (failed || !svg) {
    return (
      <span
        role="button"
        tabIndex={0}
        style={{ ...box, fontSize: 12, color: '#f56c6c' }}
        onClick={onRefresh}
        data-testid="captcha-image"
        title={t('login:captchaRefresh')}
      >
        {t('login:captchaFailed')}
      </span>
    );
  }
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={t('login:captchaAlt')}
      title={t('login:captchaRefresh')}
      onClick={onRefresh}
      data-testid="captcha-image"
      style={{ ...box, opacity: loading ? 0.5 : 1 }}
    />
  );
}
