import type { CSSProperties } from 'react';
import { Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@iot/contract';
import { IconButton } from './IconButton';

interface Props {
  style?: CSSProperties;
  /** Show the current language's name beside the icon. */
  showLabel?: boolean;
  /**
   * Switches to the chosen language: the shell's `changeLanguage` (lib/language) also saves it
   * for the signed-in user; the login page only switches.
   */
  onChange: (lang: Language) => Promise<void>;
}

/** Language switch (§1): zh, en, es, ja; each language is named in its own script. */
export function LangSelect({ style, showLabel = false, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const items = LANGUAGES.map((lang) => ({
    key: lang,
    label: <span data-testid={`lang-${lang}`}>{t(`common:languages.${lang}`)}</span>,
  }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: [i18n.language],
        onClick: ({ key }) => void onChange(key as Language),
      }}
    >
      <IconButton
        // With the language's name shown, the name read out starts with it (WCAG 2.5.3).
        label={
          showLabel
            ? t('navbar:languageCurrent', { name: t(`common:languages.${i18n.language}`) })
            : t('navbar:language')
        }
        data-testid="lang-select"
        style={style}
      >
        <TranslationOutlined />
        {showLabel && <span style={{ fontSize: 14 }}>{t(`common:languages.${i18n.language}`)}</span>}
      </IconButton>
    </Dropdown>
  );
}
