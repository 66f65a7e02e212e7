import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import TranslationOutlined from '@ant-design/icons-svg/es/asn/TranslationOutlined';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@iot/contract/plain';
import type { Language } from '@iot/contract';
import { IconButton } from './IconButton';
import { SvgIcon } from './SvgIcon';

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

/**
 * Language switch (§1): zh, en, es, ja; each language is named in its own script. A menu button
 * of its own (no antd: it is on the login page): Enter, Space or the arrows open it on the current
 * language, the arrows, Home and End move, Escape and Tab close it, a click outside too.
 */
export function LangSelect({ style, showLabel = false, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLSpanElement>(null);
  const menuId = useId();
  const current = i18n.language;

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(Math.max(0, LANGUAGES.indexOf(current as Language)));
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
    // Focus moves in when the menu opens, not on every language change while open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const choose = (lang: Language) => {
    close(true);
    if (lang !== current) void onChange(lang);
  };

  const onMenuKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      focusItem(moves[e.key]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  return (
    <span ref={root} style={{ position: 'relative', display: 'inline-flex' }}>
      <IconButton
        ref={button}
        // With the language's name shown, the name read out starts with it (WCAG 2.5.3).
        label={
          showLabel ? t('navbar:languageCurrent', { name: t(`common:languages.${current}`) }) : t('navbar:language')
        }
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="lang-select"
        style={style}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <SvgIcon icon={TranslationOutlined} />
        {showLabel && <span style={{ fontSize: 14 }}>{t(`common:languages.${current}`)}</span>}
      </IconButton>
      {open && (
        <ul ref={menu} id={menuId} role="menu" aria-label={t('navbar:language')} className="lang-menu" onKeyDown={onMenuKey}>
          {LANGUAGES.map((lang) => (
            <li
              key={lang}
              role="menuitemradio"
              aria-checked={lang === current}
              tabIndex={-1}
              lang={lang}
              className={lang === current ? 'lang-menu-item lang-menu-item-selected' : 'lang-menu-item'}
              data-testid={`lang-${lang}`}
              onClick={() => choose(lang)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  choose(lang);
                }
              }}
            >
              {t(`common:languages.${lang}`)}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
