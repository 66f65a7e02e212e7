import { useEffect, useState } from 'react';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../components/IconButton';
import { feedbackMessage } from '../../lib/feedback';

/** Fullscreen toggle (Fullscreen API); browsers without it get a warning instead. */
export function Fullscreen() {
  const { t } = useTranslation();
  const [active, setActive] = useState(() => Boolean(document.fullscreenElement));

  useEffect(() => {
    const onChange = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggle = () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      feedbackMessage().warning(t('navbar:fullscreenUnsupported'));
      return;
    }
    const action = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    action.catch(() => feedbackMessage().warning(t('navbar:fullscreenUnsupported')));
  };

  const label = active ? t('navbar:exitFullscreen') : t('navbar:fullscreen');
  const Icon = active ? FullscreenExitOutlined : FullscreenOutlined;
  return (
    <IconButton label={label} aria-pressed={active} data-testid="fullscreen-toggle" onClick={toggle}>
      <Icon />
    </IconButton>
  );
}
