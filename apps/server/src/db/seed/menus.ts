/**
 * The product menu tree of §2. Seeded once by identification: administrators may edit or move
 * these rows later and a restart never overwrites their changes.
 */
export interface MenuSeed {
  identification: string;
  parent?: string;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  menuUrl: string;
  /** 1: route without a page (a group); 0: a page. */
  menuType: 0 | 1;
  sort: number;
  icon?: string;
  isShow?: 0 | 1;
}

/**
 * Permission codes whose default menu changed in a release: moved on start-up when they still hang
 * on the old menu (an administrator's own choice is left alone). The device list used to be a
 * hidden page under projects (/project/devicelist, which the console still redirects); it is the
 * operators' most used page, so it has its own sidebar entry under Devices.
 */
export const MOVED_PERMISSIONS: readonly { code: string; from: string; to: string }[] = [
  { code: 'device:list', from: 'project-devicelist', to: 'device-list' },
];

export const MENU_SEED: MenuSeed[] = [
  // The home dashboard is the console's fixed first page (/dashboard); this hidden row only carries
  // its permission (home:view) so roles can be granted or denied it like any page.
  { identification: 'dashboard', name: '首页', nameEn: 'Dashboard', nameEs: 'Panel', nameJa: 'ダッシュボード', menuUrl: '/dashboard', menuType: 0, sort: 0, icon: 'DashboardOutlined', isShow: 0 },

  { identification: 'device', name: '设备管理', nameEn: 'Devices', nameEs: 'Dispositivos', nameJa: 'デバイス管理', menuUrl: '/device', menuType: 1, sort: 10, icon: 'ClusterOutlined' },
  { identification: 'device-list', parent: 'device', name: '设备列表', nameEn: 'Device list', nameEs: 'Lista de dispositivos', nameJa: 'デバイス一覧', menuUrl: 'list', menuType: 0, sort: 0, icon: 'UnorderedListOutlined' },
  { identification: 'device-type', parent: 'device', name: '设备类型', nameEn: 'Device types', nameEs: 'Tipos de dispositivo', nameJa: 'デバイスタイプ', menuUrl: 'type', menuType: 0, sort: 1, icon: 'AppstoreOutlined' },
  { identification: 'device-addtype', parent: 'device', name: '新增类型', nameEn: 'Add type', nameEs: 'Añadir tipo', nameJa: 'タイプ追加', menuUrl: 'addtype', menuType: 0, sort: 2, isShow: 0 },
  { identification: 'device-edittype', parent: 'device', name: '编辑类型', nameEn: 'Edit type', nameEs: 'Editar tipo', nameJa: 'タイプ編集', menuUrl: 'edittype', menuType: 0, sort: 3, isShow: 0 },
  { identification: 'device-setparam', parent: 'device', name: '参数设置', nameEn: 'Set parameters', nameEs: 'Configurar parámetros', nameJa: 'パラメータ設定', menuUrl: 'setparam', menuType: 0, sort: 4, isShow: 0 },
  { identification: 'device-setalarm', parent: 'device', name: '告警设置', nameEn: 'Alarm settings', nameEs: 'Configurar alarmas', nameJa: 'アラーム設定', menuUrl: 'setalarm', menuType: 0, sort: 5, isShow: 0 },
  // Track playback (issue #35): a device and a time range, opened from the sidebar, the device list or details.
  { identification: 'device-track', parent: 'device', name: '轨迹回放', nameEn: 'Tracks', nameEs: 'Recorridos', nameJa: '走行軌跡', menuUrl: 'track', menuType: 0, sort: 6, icon: 'NodeIndexOutlined' },

  { identification: 'project', name: '项目管理', nameEn: 'Projects', nameEs: 'Proyectos', nameJa: 'プロジェクト管理', menuUrl: '/project', menuType: 1, sort: 20, icon: 'ProjectOutlined' },
  { identification: 'project-index', parent: 'project', name: '项目列表', nameEn: 'Project list', nameEs: 'Lista de proyectos', nameJa: 'プロジェクト一覧', menuUrl: 'index', menuType: 0, sort: 1, icon: 'UnorderedListOutlined' },
  // The fleet map (issue #35; migration 0052 for existing installs): devices of projects with maps on.
  { identification: 'project-map', parent: 'project', name: '设备地图', nameEn: 'Device map', nameEs: 'Mapa de dispositivos', nameJa: 'デバイスマップ', menuUrl: 'map', menuType: 0, sort: 2, icon: 'EnvironmentOutlined' },
  { identification: 'project-details', parent: 'project', name: '项目详情', nameEn: 'Project details', nameEs: 'Detalles del proyecto', nameJa: 'プロジェクト詳細', menuUrl: 'details', menuType: 0, sort: 2, isShow: 0 },
  { identification: 'project-info', parent: 'project', name: '设备详情', nameEn: 'Device details', nameEs: 'Detalles del dispositivo', nameJa: 'デバイス詳細', menuUrl: 'info', menuType: 0, sort: 4, isShow: 0 },
  // The alarm list is in the sidebar (it was a hidden page until migration 0042 showed it).
  { identification: 'project-alarminfo', parent: 'project', name: '告警列表', nameEn: 'Alarms', nameEs: 'Alarmas', nameJa: 'アラーム一覧', menuUrl: 'alarminfo', menuType: 0, sort: 5, icon: 'BellOutlined' },
  { identification: 'project-userprojectlist', parent: 'project', name: '项目用户', nameEn: 'Project users', nameEs: 'Usuarios del proyecto', nameJa: 'プロジェクトユーザー', menuUrl: 'userProjectList', menuType: 0, sort: 6, isShow: 0 },

  { identification: 'user', name: '用户管理', nameEn: 'Users', nameEs: 'Usuarios', nameJa: 'ユーザー管理', menuUrl: '/user', menuType: 1, sort: 30, icon: 'TeamOutlined' },
  { identification: 'user-agent', parent: 'user', name: '用户列表', nameEn: 'User management', nameEs: 'Gestión de usuarios', nameJa: 'ユーザー一覧', menuUrl: 'agent', menuType: 0, sort: 1, icon: 'UserOutlined' },

  // Upgrades: versions, device upgrades and external devices are built (migrations 0055, 0058 and
  // 0057 show them on existing installs).
  { identification: 'upgrade', name: '升级管理', nameEn: 'Upgrades', nameEs: 'Actualizaciones', nameJa: 'アップグレード管理', menuUrl: '/upgrade', menuType: 1, sort: 40, icon: 'CloudUploadOutlined', isShow: 1 },
  { identification: 'upgrade-version', parent: 'upgrade', name: '版本管理', nameEn: 'Versions', nameEs: 'Versiones', nameJa: 'バージョン管理', menuUrl: 'version', menuType: 0, sort: 1, icon: 'TagsOutlined', isShow: 1 },
  { identification: 'upgrade-device', parent: 'upgrade', name: '设备升级', nameEn: 'Device upgrade', nameEs: 'Actualizar dispositivos', nameJa: 'デバイスアップグレード', menuUrl: 'device', menuType: 0, sort: 2, icon: 'SyncOutlined', isShow: 1 },
  { identification: 'upgrade-external', parent: 'upgrade', name: '外部设备升级', nameEn: 'External device upgrade', nameEs: 'Actualizar dispositivos externos', nameJa: '外部デバイスアップグレード', menuUrl: 'external', menuType: 0, sort: 3, icon: 'ApiOutlined' },

  { identification: 'card', name: '物联网卡', nameEn: 'SIM cards', nameEs: 'Tarjetas SIM', nameJa: 'SIMカード', menuUrl: '/card', menuType: 1, sort: 50, icon: 'CreditCardOutlined' },
  { identification: 'card-index', parent: 'card', name: '卡管理', nameEn: 'SIM card management', nameEs: 'Gestión de tarjetas SIM', nameJa: 'SIMカード管理', menuUrl: 'index', menuType: 0, sort: 1, icon: 'MobileOutlined' },
  { identification: 'card-order', parent: 'card', name: '订单管理', nameEn: 'Order management', nameEs: 'Gestión de pedidos', nameJa: '注文管理', menuUrl: 'orderManagement', menuType: 0, sort: 2, icon: 'ShoppingCartOutlined' },

  // Stores, rentals and the agent view (issue #38; migrations 0060 and 0061 for existing installs).
  { identification: 'store', name: '门店管理', nameEn: 'Stores', nameEs: 'Tiendas', nameJa: '店舗管理', menuUrl: '/store', menuType: 1, sort: 55, icon: 'ShopOutlined' },
  { identification: 'store-index', parent: 'store', name: '门店列表', nameEn: 'Store list', nameEs: 'Lista de tiendas', nameJa: '店舗一覧', menuUrl: 'index', menuType: 0, sort: 1, icon: 'ShopOutlined' },
  { identification: 'rent', name: '租售管理', nameEn: 'Rentals and sales', nameEs: 'Alquileres y ventas', nameJa: 'レンタル・販売', menuUrl: '/rent', menuType: 1, sort: 56, icon: 'SwapOutlined' },
  { identification: 'rent-overview', parent: 'rent', name: '经营概览', nameEn: 'Agent view', nameEs: 'Vista del agente', nameJa: '代理店ビュー', menuUrl: 'overview', menuType: 0, sort: 0, icon: 'BarChartOutlined' },
  { identification: 'rent-index', parent: 'rent', name: '租售记录', nameEn: 'Rentals', nameEs: 'Alquileres', nameJa: 'レンタル一覧', menuUrl: 'index', menuType: 0, sort: 1, icon: 'SwapOutlined' },

  { identification: 'sys', name: '系统管理', nameEn: 'System', nameEs: 'Sistema', nameJa: 'システム管理', menuUrl: '/sys', menuType: 1, sort: 90, icon: 'SettingOutlined' },
  { identification: 'sys-menu', parent: 'sys', name: '菜单管理', nameEn: 'Menus', nameEs: 'Menús', nameJa: 'メニュー管理', menuUrl: 'menu', menuType: 0, sort: 1, icon: 'MenuOutlined' },
  { identification: 'sys-adminuser', parent: 'sys', name: '管理员', nameEn: 'Administrators', nameEs: 'Administradores', nameJa: '管理者', menuUrl: 'adminuser', menuType: 0, sort: 2, icon: 'CrownOutlined' },
  { identification: 'sys-role', parent: 'sys', name: '角色管理', nameEn: 'Roles', nameEs: 'Roles', nameJa: 'ロール管理', menuUrl: 'role', menuType: 0, sort: 3, icon: 'SafetyOutlined' },
  { identification: 'sys-permission', parent: 'sys', name: '权限管理', nameEn: 'Permissions', nameEs: 'Permisos', nameJa: '権限管理', menuUrl: 'permission', menuType: 0, sort: 4, icon: 'KeyOutlined' },
  // Company accounts (user type 1), not "Users" twice beside the Users group (migration 0041).
  { identification: 'sys-user', parent: 'sys', name: '企业账号', nameEn: 'Company accounts', nameEs: 'Cuentas de empresa', nameJa: '企業アカウント', menuUrl: 'user', menuType: 0, sort: 5, icon: 'UserSwitchOutlined' },
  { identification: 'sys-logs', parent: 'sys', name: '操作日志', nameEn: 'Operation logs', nameEs: 'Registro de operaciones', nameJa: '操作ログ', menuUrl: 'logs', menuType: 0, sort: 6, icon: 'FileTextOutlined' },
  { identification: 'sys-site', parent: 'sys', name: '站点设置', nameEn: 'Site settings', nameEs: 'Configuración del sitio', nameJa: 'サイト設定', menuUrl: 'site', menuType: 0, sort: 8, icon: 'HomeOutlined' },
  { identification: 'sys-clienterrors', parent: 'sys', name: '浏览器错误', nameEn: 'Browser errors', nameEs: 'Errores del navegador', nameJa: 'ブラウザーのエラー', menuUrl: 'clienterrors', menuType: 0, sort: 9, icon: 'ApiOutlined' },
  { identification: 'sys-devlogs', parent: 'sys', name: '设备日志', nameEn: 'Device logs', nameEs: 'Registros de dispositivos', nameJa: 'デバイスログ', menuUrl: 'devlogs', menuType: 0, sort: 7, icon: 'ProfileOutlined' },
];
