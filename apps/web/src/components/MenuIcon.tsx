import type { ComponentType } from 'react';
import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  CreditCardOutlined,
  CrownOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  HomeOutlined,
  KeyOutlined,
  LinkOutlined,
  MenuOutlined,
  MobileOutlined,
  NodeIndexOutlined,
  ProfileOutlined,
  ProjectOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  SwapOutlined,
  SyncOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UnorderedListOutlined,
  UserOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';

/**
 * Menu rows name their icon by antd icon name (`ClusterOutlined`). Only these are bundled;
 * any other name shows the generic icon rather than pulling in the whole icon set.
 */
const ICONS: Record<string, ComponentType> = {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  CreditCardOutlined,
  CrownOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  HomeOutlined,
  KeyOutlined,
  LinkOutlined,
  MenuOutlined,
  MobileOutlined,
  NodeIndexOutlined,
  ProfileOutlined,
  ProjectOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  SwapOutlined,
  SyncOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UnorderedListOutlined,
  UserOutlined,
  UserSwitchOutlined,
  // Short names used by the constant routes.
  dashboard: DashboardOutlined,
  user: UserOutlined,
};

/** The icon names a menu may use (the antd names; the short aliases are left out). */
export const MENU_ICON_NAMES: readonly string[] = Object.keys(ICONS).filter((name) => name.endsWith('Outlined'));

/** antd's Menu passes `className` (ant-menu-item-icon): it sizes the title beside the icon. */
export function MenuIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? AppstoreOutlined;
  return <Icon className={className} />;
}
