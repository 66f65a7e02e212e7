import { Button, ColorPicker, Divider, Drawer, Segmented, Switch } from 'antd';
import { UI_SIZES, type UiSize } from '../../lib/cookies';
import { setUiSize, useUiSize } from '../../lib/ui-size';
import { useTranslation } from 'react-i18next';
import { resetSettings, THEME_PRESETS, updateSettings, useSettings, type Settings } from '../settings';

interface Props {
  open: boolean;
  onClose: () => void;
}

type Toggle = Exclude<keyof Settings, 'themeColor'>;

const TOGGLES: { key: Toggle; testId: string; label: string }[] = [
  { key: 'tagsView', testId: 'setting-tags-view', label: 'settings:tagsView' },
  { key: 'fixedHeader', testId: 'setting-fixed-header', label: 'settings:fixedHeader' },
  { key: 'sidebarLogo', testId: 'setting-sidebar-logo', label: 'settings:sidebarLogo' },
  { key: 'pinyinSearch', testId: 'setting-pinyin-search', label: 'settings:pinyinSearch' },
];

const row = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  padding: '10px 0',
} as const;

/** §2 settings panel: theme colour, UI size (§9, a cookie) and layout switches, saved in this browser. */
export function SettingsDrawer({ open, onClose }: Props) {
  const { t } = useTranslation();
  const settings = useSettings();
  const size = useUiSize();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('settings:title')}
      size={300}
      data-testid="settings-drawer"
    >
      <div style={row}>
        <span>{t('settings:theme')}</span>
        <ColorPicker
          value={settings.themeColor}
          disabledAlpha
          presets={[{ label: t('settings:presets'), colors: THEME_PRESETS }]}
          onChangeComplete={(color) => updateSettings({ themeColor: color.toHexString().toUpperCase() })}
          data-testid="setting-theme"
        />
      </div>
      <div style={row}>
        <span id="setting-size-label">{t('settings:size')}</span>
        <Segmented<UiSize>
          value={size}
          onChange={setUiSize}
          aria-labelledby="setting-size-label"
          options={UI_SIZES.map((s) => ({ value: s, label: t(`settings:sizes.${s}`) }))}
          data-testid="setting-size"
        />
      </div>
      <Divider style={{ margin: '8px 0' }} />
      {TOGGLES.map(({ key, testId, label }) => (
        <div key={key} style={row}>
          <span>{t(label)}</span>
          <Switch
            checked={settings[key]}
            onChange={(checked) => updateSettings({ [key]: checked })}
            data-testid={testId}
          />
        </div>
      ))}
      <Divider style={{ margin: '8px 0' }} />
      <Button
        block
        onClick={() => {
          resetSettings();
          setUiSize('middle');
        }}
        data-testid="settings-reset"
      >
        {t('settings:reset')}
      </Button>
    </Drawer>
  );
}
