/**
 * Every key of the console's server cache (react-query), one object per domain. A query names its
 * key here and a change invalidates through here, so a feature that refreshes another domain's
 * lists (a project deleted moves devices, an alarm changes warning levels) says which domain, not
 * a string it hopes matches; and two queries for different requests can never share a key by
 * accident. `all` of a domain covers every key of that domain; lint (`eslint.config.js`) refuses
 * array keys written anywhere else.
 *
 * Keys carry the request's own parameters (the query sent), so one request has one key whichever
 * screen asks for it.
 */

/** Query parameters of a list or search, as sent. */
type Params = object;

export const deviceKeys = {
  all: ['devices'] as const,
  list: (params: Params) => ['devices', 'list', params] as const,
  /** A parent's sub-devices, every page (a prefix of `sub`). */
  subOf: (id: number) => ['devices', 'sub', id] as const,
  sub: (id: number, page: number, limit: number) => ['devices', 'sub', id, page, limit] as const,
  /** The SN or name typeahead (GET /device/seachList). */
  search: (text: string) => ['devices', 'search', text] as const,
  basic: (id: number | null | undefined) => ['devices', 'basic', id] as const,
};

/**
 * What the details page reads about one device beyond its registry row: display groups, writable
 * parameters, commands, history, charts and energy. Apart from `deviceKeys` so that device edits
 * and alarm events (which refresh `deviceKeys.all`) do not refetch telemetry.
 */
export const deviceDetailKeys = {
  all: ['device-details'] as const,
  groups: (id: number) => ['device-details', 'groups', id] as const,
  writable: (id: number) => ['device-details', 'writable', id] as const,
  /** A device's commands, every page (a prefix of `commands`). */
  commandsOf: (id: number) => ['device-details', 'commands', id] as const,
  commands: (id: number, page: number, limit: number) => ['device-details', 'commands', id, page, limit] as const,
  history: (query: Params | undefined) => ['device-details', 'history', query] as const,
  /** Where a device's history opens (the day of its newest data). */
  historyRange: (id: number) => ['device-details', 'history-range', id] as const,
  chart: (query: Params | undefined) => ['device-details', 'chart', query] as const,
  energy: (query: Params) => ['device-details', 'energy', query] as const,
  /** A device's geo-fences with their history. */
  fences: (id: number) => ['device-details', 'fences', id] as const,
};

/** Tracks (GET /device/locus): a device's fixes over a range, and where its track opens. */
export const trackKeys = {
  all: ['tracks'] as const,
  locus: (query: Params | undefined) => ['tracks', 'locus', query] as const,
  range: (id: number) => ['tracks', 'range', id] as const,
};

export const deviceTypeKeys = {
  all: ['devicetypes'] as const,
  list: (params: Params) => ['devicetypes', 'list', params] as const,
  item: (id: number) => ['devicetypes', 'item', id] as const,
  params: (id: number) => ['devicetypes', 'params', id] as const,
  alarms: (id: number) => ['devicetypes', 'alarms', id] as const,
  /** Every type, for pickers (GET /devicetype/typeoptionslist). */
  options: ['devicetypes', 'options'] as const,
  /** The types the caller may see (GET /user/devicetypelist). */
  visible: ['devicetypes', 'visible'] as const,
};

export const alarmKeys = {
  all: ['alarms'] as const,
  list: (params: Params) => ['alarms', 'list', params] as const,
  groups: (filters: Params) => ['alarms', 'groups', filters] as const,
  bell: ['alarms', 'bell'] as const,
  /** One alarm's SMS and calls (GET /device/alarmnotices). */
  notices: (alarmId: number) => ['alarms', 'notices', alarmId] as const,
};

export const projectKeys = {
  all: ['projects'] as const,
  /** GET /project/list with this query: the project list and the pickers that search it. */
  list: (params: Params) => ['projects', 'list', params] as const,
  item: (id: number | undefined) => ['projects', 'item', id] as const,
  /** GET /project/weather: the forecast at the project's position. */
  weather: (id: number) => ['projects', 'weather', id] as const,
  /** A project's road sections, every page (a prefix of `roads`). */
  roadsOf: (projectId: number) => ['projects', 'roads', projectId] as const,
  roads: (projectId: number, page: number, limit: number) => ['projects', 'roads', projectId, page, limit] as const,
  users: (id: number | undefined) => ['projects', 'users', id] as const,
};

export const userKeys = {
  all: ['users'] as const,
  list: (kind: string, params: Params) => ['users', 'list', kind, params] as const,
  /** The user pickers' searches. */
  options: (q: string, limit: number) => ['users', 'options', q, limit] as const,
  /** A user's linked e-mail addresses. */
  emails: (userId: number) => ['users', 'emails', userId] as const,
};

/**
 * The home dashboard's figures (GET /home/*): live message 170 and the style switch refresh them
 * all through `all`.
 */
export const homeKeys = {
  all: ['home'] as const,
  summary: ['home', 'list'] as const,
  levels: ['home', 'levelnum'] as const,
  trend: (params: Params) => ['home', 'alarmnum', params] as const,
  top5: (params: Params) => ['home', 'gettop5', params] as const,
  devices: (params: Params) => ['home', 'devicelist', params] as const,
  projects: ['home', 'projectlist'] as const,
  battery: (params: Params) => ['home', 'battery', params] as const,
  voice: (params: Params) => ['home', 'voice', params] as const,
};

/** The signed-in user's own account. */
/** The fleet and project maps: GET /map/positions (refetched on live alarm and state news). */
export const mapKeys = {
  all: ['map'] as const,
  positions: (projectId: number | undefined) => ['map', 'positions', projectId ?? null] as const,
};

export const profileKeys = {
  all: ['profile'] as const,
  logins: (page: number, limit: number) => ['profile', 'logins', page, limit] as const,
};

export const roleKeys = {
  all: ['roles'] as const,
  list: (params: Params) => ['roles', 'list', params] as const,
  permissions: (id: number) => ['roles', 'permissions', id] as const,
  /** Roles the caller may give (the user form and the user list's role filter). */
  options: ['roles', 'options'] as const,
};

export const permissionKeys = {
  all: ['permissions'] as const,
  list: (params: Params) => ['permissions', 'list', params] as const,
  menuOptions: ['permissions', 'menuoptions'] as const,
};

export const menuKeys = {
  all: ['menus'] as const,
  tree: ['menus', 'tree'] as const,
  options: ['menus', 'options'] as const,
};

export const cardKeys = {
  all: ['cards'] as const,
  list: (params: Params) => ['cards', 'list', params] as const,
  item: (id: number | undefined) => ['cards', 'item', id] as const,
  /** Live carrier data of one card: basic info, voice margin or whitelist. */
  carrier: (kind: 'basicInfo' | 'voiceMargin' | 'whitelist', id: number | undefined) => ['cards', kind, id] as const,
};

export const cardOrderKeys = {
  all: ['cardOrders'] as const,
  list: (params: Params) => ['cardOrders', 'list', params] as const,
  item: (id: number | undefined) => ['cardOrders', 'item', id] as const,
  payQr: (id: number | undefined) => ['cardOrders', 'qr', id] as const,
};

export const cardPriceKeys = {
  all: ['cardPrices'] as const,
  list: (params: Params) => ['cardPrices', 'list', params] as const,
  options: ['cardPrices', 'options'] as const,
};

/** External devices (/upgrade/external): the registry, the upgrades, their logs, the versions to assign. */
export const externalKeys = {
  all: ['external'] as const,
  devices: (params: Params) => ['external', 'devices', params] as const,
  upgrades: (params: Params) => ['external', 'upgrades', params] as const,
  logs: (params: Params) => ['external', 'logs', params] as const,
  versions: ['external', 'versions'] as const,
};

export const logKeys = {
  all: ['logs'] as const,
  operations: (params: Params) => ['logs', 'operation', params] as const,
  logins: (params: Params) => ['logs', 'login', params] as const,
  device: (params: Params) => ['logs', 'device', params] as const,
  clientErrors: (params: Params) => ['logs', 'client', params] as const,
};

/**
 * Device upgrade campaigns (/upgrade/campaignlist, devicelist, loglist): the details drawer
 * refetches `of(id)` every 2 s while its campaign runs.
 */
export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (params: Params) => ['campaigns', 'list', params] as const,
  /** One campaign, its devices and their logs (a prefix of `item`, `devices`, `logs` of it). */
  of: (id: number) => ['campaigns', 'of', id] as const,
  item: (id: number) => ['campaigns', 'of', id, 'item'] as const,
  devices: (id: number, params: Params) => ['campaigns', 'of', id, 'devices', params] as const,
  logs: (id: number, params: Params) => ['campaigns', 'of', id, 'logs', params] as const,
};

/** The navbar search over devices, projects and users (GET /search). */
export const searchKeys = {
  find: (text: string) => ['search', text] as const,
};

export const siteKeys = {
  config: ['site-config'] as const,
};

export const authKeys = {
  captcha: ['captcha'] as const,
};

/** Firmware versions (§2 /upgrade/version). */
export const firmwareKeys = {
  all: ['firmware'] as const,
  list: (params: Params) => ['firmware', 'list', params] as const,
};

/** Stores (/store/index): the list, one store, one store's stock. */
export const storeKeys = {
  all: ['stores'] as const,
  list: (params: Params) => ['stores', 'list', params] as const,
  item: (id: number | undefined) => ['stores', 'item', id] as const,
  stock: (params: Params) => ['stores', 'stock', params] as const,
};

/** Rentals and sales (/rent/index): the list, one rental, a pack's return check. */
export const rentalKeys = {
  all: ['rentals'] as const,
  list: (params: Params) => ['rentals', 'list', params] as const,
  item: (id: number | undefined) => ['rentals', 'item', id] as const,
  check: (id: number | undefined) => ['rentals', 'check', id] as const,
  summary: (params: Params) => ['rentals', 'summary', params] as const,
};
