/**
 * Permission codes: every route declares one, the web hides menus and buttons with the same codes.
 * Each code belongs to the menu (by identification) whose screen it guards; a menu shows for a user
 * holding any permission of it or of a descendant. The seed creates the permission rows from this
 * table, so a new code here reaches the database at the next start.
 */

/** Route needs no session (login, captcha, site config). */
export const PUBLIC = 'public' as const;
/** Route needs a valid session and nothing more (own profile, own menus, logout). */
export const AUTHENTICATED = 'authenticated' as const;

export const PERMISSIONS = {
  'home:view': { menu: 'dashboard', name: 'View the home dashboard' },
  'devicetype:list': { menu: 'device-type', name: 'List device types' },
  'devicetype:add': { menu: 'device-addtype', name: 'Add device type' },
  'devicetype:edit': { menu: 'device-edittype', name: 'Edit device type' },
  'devicetype:delete': { menu: 'device-type', name: 'Delete device type' },
  'devicetype:paramview': { menu: 'device-setparam', name: 'View parameter settings' },
  'devicetype:param': { menu: 'device-setparam', name: 'Edit parameter settings' },
  'devicetype:alarmview': { menu: 'device-setalarm', name: 'View alarm settings' },
  'devicetype:alarm': { menu: 'device-setalarm', name: 'Edit alarm settings' },
  'project:list': { menu: 'project-index', name: 'List projects' },
  'project:add': { menu: 'project-index', name: 'Add project' },
  'project:edit': { menu: 'project-index', name: 'Edit project' },
  'project:delete': { menu: 'project-index', name: 'Delete project' },
  'project:users': { menu: 'project-userprojectlist', name: 'Assign project users' },
  'device:list': { menu: 'device-list', name: 'List devices' },
  'map:view': { menu: 'project-map', name: 'View devices on the map' },
  'project:detail': { menu: 'project-details', name: 'View project details' },
  'device:detail': { menu: 'project-info', name: 'View device details' },
  'device:track': { menu: 'device-track', name: 'Replay device tracks' },
  'device:add': { menu: 'project-index', name: 'Add device' },
  'device:edit': { menu: 'project-index', name: 'Edit device' },
  'device:delete': { menu: 'project-index', name: 'Delete device' },
  'device:import': { menu: 'project-index', name: 'Import devices' },
  'device:command': { menu: 'project-index', name: 'Send device commands' },
  'device:fence': { menu: 'project-index', name: 'Set device geo-fences' },
  'alarm:list': { menu: 'project-alarminfo', name: 'List alarms' },
  'alarm:handle': { menu: 'project-index', name: 'Handle alarms' },
  'agent:list': { menu: 'user-agent', name: 'List users' },
  'agent:add': { menu: 'user-agent', name: 'Add user' },
  'agent:edit': { menu: 'user-agent', name: 'Edit user' },
  'agent:delete': { menu: 'user-agent', name: 'Delete user' },
  'upgrade:list': { menu: 'upgrade-version', name: 'List firmware versions' },
  'upgrade:add': { menu: 'upgrade-version', name: 'Add firmware version' },
  'upgrade:edit': { menu: 'upgrade-version', name: 'Edit firmware version' },
  'upgrade:delete': { menu: 'upgrade-version', name: 'Delete firmware version' },
  'upgrade:device': { menu: 'upgrade-device', name: 'Upgrade devices' },
  'upgrade:external': { menu: 'upgrade-external', name: 'Upgrade external devices' },
  'card:list': { menu: 'card-index', name: 'List SIM cards' },
  'card:edit': { menu: 'card-index', name: 'Edit SIM cards' },
  'card:order': { menu: 'card-order', name: 'Manage card orders' },
  'card:price': { menu: 'card-order', name: 'Set card prices' },
  'store:list': { menu: 'store-index', name: 'List stores and their stock' },
  'store:edit': { menu: 'store-index', name: 'Manage stores and their stock' },
  'rent:list': { menu: 'rent-index', name: 'List rentals and sales' },
  'rent:edit': { menu: 'rent-index', name: 'Rent, sell and return packs' },
  'rent:command': { menu: 'rent-index', name: 'Turn a lost pack’s discharge off' },
  'rent:overview': { menu: 'rent-overview', name: 'See the agent view: stock, open rentals and revenue' },
  'menu:list': { menu: 'sys-menu', name: 'List menus' },
  'menu:add': { menu: 'sys-menu', name: 'Add menu' },
  'menu:edit': { menu: 'sys-menu', name: 'Edit menu' },
  'menu:delete': { menu: 'sys-menu', name: 'Delete menu' },
  'admin:list': { menu: 'sys-adminuser', name: 'List administrators' },
  'admin:add': { menu: 'sys-adminuser', name: 'Add administrator' },
  'admin:edit': { menu: 'sys-adminuser', name: 'Edit administrator' },
  'admin:delete': { menu: 'sys-adminuser', name: 'Delete administrator' },
  'role:list': { menu: 'sys-role', name: 'List roles' },
  'role:add': { menu: 'sys-role', name: 'Add role' },
  'role:edit': { menu: 'sys-role', name: 'Edit role' },
  'role:delete': { menu: 'sys-role', name: 'Delete role' },
  'permission:list': { menu: 'sys-permission', name: 'List permissions' },
  'permission:add': { menu: 'sys-permission', name: 'Add permission' },
  'permission:edit': { menu: 'sys-permission', name: 'Edit permission' },
  'permission:delete': { menu: 'sys-permission', name: 'Delete permission' },
  'user:list': { menu: 'sys-user', name: 'List users (system)' },
  'user:add': { menu: 'sys-user', name: 'Add user (system)' },
  'user:edit': { menu: 'sys-user', name: 'Edit user (system)' },
  'user:delete': { menu: 'sys-user', name: 'Delete user (system)' },
  'log:operation': { menu: 'sys-logs', name: 'Read operation logs' },
  'log:device': { menu: 'sys-devlogs', name: 'Read device and login logs' },
  'log:client': { menu: 'sys-clienterrors', name: 'Read browser error logs' },
  'site:edit': { menu: 'sys-site', name: 'Edit the site settings (every user sees them)' },
} as const satisfies Record<string, { menu: string; name: string }>;

export type PermissionCode = keyof typeof PERMISSIONS;
export type RoutePermission = PermissionCode | typeof PUBLIC | typeof AUTHENTICATED;

export const PERMISSION_CODES = Object.keys(PERMISSIONS) as PermissionCode[];

/**
 * Codes that open the user picker (GET /user/options): listing, adding or editing users on any of
 * the three user screens. The console searches users only for holders of one of them.
 */
export const USER_PICKER_PERMISSIONS: readonly PermissionCode[] = (['admin', 'user', 'agent'] as const).flatMap(
  (screen) => (['list', 'add', 'edit'] as const).map((verb): PermissionCode => `${screen}:${verb}`),
);

/**
 * Codes the ADMIN role does not get by default: the platform's own structure, and the prices its
 * merchant account charges for cards, stay with SUPERADMIN (who may grant them through a role).
 */
export const SUPERADMIN_ONLY: readonly PermissionCode[] = [
  'card:price',
  'menu:add',
  'menu:edit',
  'menu:delete',
  'permission:add',
  'permission:edit',
  'permission:delete',
  'site:edit',
  'log:client',
];

/** BATTERYMANAGEMENT operates the fleet: projects, devices, alarms, read-only types. */
export const BATTERY_MANAGEMENT_DEFAULT: readonly PermissionCode[] = [
  'home:view',
  'devicetype:list',
  'devicetype:paramview',
  'devicetype:alarmview',
  'project:list',
  'project:detail',
  'device:list',
  'map:view',
  'device:detail',
  'device:track',
  'device:edit',
  'device:command',
  'device:fence',
  'alarm:list',
  'alarm:handle',
  'card:list',
];
