/**
 * Why the API refused a request, as stable reason codes. An error envelope carries
 * `data.reason` (a key of REFUSALS) and `data.params`; `message` is the English text below with
 * the params filled in, for API users and logs. The console shows `refusals:<reason>` in the UI
 * language instead (scripts/i18n-check.mjs fails the build when a language lacks one, or when a
 * translation drops a `{{param}}` of the English template).
 */
export const REFUSALS = {
  // Permissions and sessions
  missingPermission: 'You do not have the permission {{codes}}',
  oldPasswordWrong: 'The old password is incorrect',
  samePassword: 'The new password must differ from the old one',

  duplicateValue: 'This value is already used',
  cursorOtherSort: 'This cursor was made for another sort or order of the list: start again without it',

  // Not found (foreign objects answer the same way, so ids cannot be probed)
  userNotFound: 'The user does not exist',
  roleNotFound: 'The role does not exist',
  menuNotFound: 'The menu does not exist',
  permissionNotFound: 'The permission does not exist',
  emailNotFound: 'The email does not exist',
  deviceTypeNotFound: 'The device type does not exist',
  projectNotFound: 'The project does not exist',
  roadSectionNotFound: 'The road section does not exist',
  devicesNotFound: 'These devices do not exist: {{ids}}',
  alarmsNotFound: 'These alarms do not exist: {{ids}}',

  // Menus and permissions
  menuHasChildren: 'This menu has sub-menus: delete or move them first',
  menuHasPermissions: 'This menu still owns permissions: delete or move them first',
  menuCycle: 'A menu cannot be placed below itself',
  noParentMenu: 'The parent menu does not exist',
  noMenu: 'The menu does not exist',
  identificationTaken: 'This identification is already used',
  consoleCodeDelete: 'The console itself uses this permission code: it cannot be deleted',
  consoleCodeRename: 'The console itself uses this permission code: it cannot be renamed',

  // Roles
  roleInUse: 'This role is still given to users: change their role first',
  builtinRoleDelete: 'Built-in roles cannot be deleted',
  builtinRoleRename: 'The identification of a built-in role cannot change',
  roleNotEditable: 'You cannot change this role',
  superPermissions: 'The super administrator holds every permission; its set cannot be edited',
  grantBeyondOwn: 'You cannot grant permissions you do not hold: {{codes}}',

  // Users and emails
  roleBeyondOwn: 'This role holds permissions you do not have: {{codes}}',
  superRoleOnly: 'Only a super administrator can give this role',
  noRole: 'The role does not exist or cannot be given',
  noParentUser: 'The parent user does not exist',
  userCycle: 'A user cannot be moved below itself or its own sub-users',
  usernameTaken: 'This user name is already taken',
  userHasChildren: 'This user still has sub-users: move or delete them first',
  userOwnsRecords: 'This user still owns projects, stores or other records: move them to another user or delete them first',
  userStronger: 'This user holds permissions you do not have: you cannot change it',
  ownFixed: 'You cannot change your own role, parent, type or state',
  deleteSelf: 'You cannot delete yourself',
  resetSelf: 'Use "Change password" for your own account',
  lastSuperDelete: 'The last super administrator cannot be deleted',
  lastSuperKeep: 'The last super administrator must stay enabled and keep its role',
  emailLimit: 'A user can have at most {{max}} emails',
  emailTaken: 'This email is already linked',
  foreignEmails: 'You cannot manage the emails of other users',

  // Checks shared by the console's forms and the API (packages/contract devicetype-rules.ts)
  tooLong: 'At most {{max}} characters',
  nameRequired: 'Please enter the name',
  codePattern: 'Letters, digits and _ . - only',

  // Device types, parameters and alarm rules
  builtinTypeSuperOnly: 'Only a super administrator can change a built-in type',
  typeCodeTaken: 'This type code is already used',
  builtinTypeCode: 'The code of a built-in type cannot change',
  builtinTypeDelete: 'A built-in type cannot be deleted',
  typeInUse: '{{count}} device(s) still use this type: change or delete them first',
  semaphoreIdRequired: 'Please enter the semaphore ID',
  semaphoreTwice: 'Semaphore id {{id}} appears twice',
  minAboveMax: 'Max must not be below min',
  enumRequired: 'An enum needs at least one value',
  enumTooMany: 'At most {{max}} values',
  enumInvalid: 'Some values are incomplete or repeated',
  enumValueRequired: 'Please enter the value',
  enumValueTwice: 'The value {{value}} is used twice',
  enumLabelRequired: 'Please enter the label',
  rulesUseRemovedParams: 'Alarm rules use parameters being removed: {{ids}}',
  ruleNoLongerFits: 'The alarm rule on {{id}} no longer fits its changed parameter',
  ruleParamRequired: 'Please select the parameter',
  ruleNoParam: 'This type has no parameter {{id}}',
  ruleComparison: 'This parameter can only be compared with {{allowed}}',
  ruleNumber: 'A number is required',
  ruleInteger: 'An integer is required',
  ruleRangeSecond: 'A range needs a second threshold',
  ruleRangeOrder: 'The upper bound must be above the lower bound',
  ruleBoolean: 'true or false is required',
  ruleEnum: 'One of {{values}} is required',
  ruleText: 'Please enter the text',
  ruleLevel: 'Please choose a level from 1 to 4',
  ruleMessageRequired: 'Please enter the message',
  ruleHoldRange: 'The hold time is 0 to {{max}} seconds',

  // Projects
  noUser: 'The user does not exist',
  noUsers: 'These users do not exist: {{ids}}',
  projectHasDevices: 'This project still holds {{count}} device(s): move them to another project first',
  chooseAnotherProject: 'Choose another project to move the devices to',
  projectSharedOnly: 'This project is shared with you: only its owner’s line can change it',

  // Devices
  devicesSharedOnly: 'Shared with you, not yours to change: {{sns}}',
  noDeviceType: 'The device type does not exist',
  deviceOwnParent: 'A device cannot be its own parent',
  noParentDevice: 'The parent device does not exist',
  subDeviceNesting: 'A sub-device cannot have sub-devices',
  parentWithSubs: 'A device with sub-devices cannot become a sub-device',
  noProject: 'The project does not exist',
  snTaken: 'A device with SN {{sn}} already exists',
  deviceDisabled: 'This device is disabled: an administrator must enable it before it may send data',

  // External devices
  externalDuplicate: 'These identifiers are already registered: {{identifiers}}',
  externalDevicesNotFound: 'These external devices do not exist: {{ids}}',
  externalVersionNotFound: 'The firmware version does not exist',
  externalUpgrading: 'These devices are downloading or installing: cancel their upgrade first: {{identifiers}}',
  externalNotAssigned: 'This firmware version is not assigned to this device',

  // Geo-fences
  fenceNotFound: 'The geo-fence does not exist',
  fenceBusy: 'A command for this geo-fence still waits for the device’s answer',
  fenceNotKept: 'The device does not keep this geo-fence (it is {{state}}): only an issued fence can be re-locked',
  fenceRemoved: 'This geo-fence is already removed',
  fenceLimit: 'A device keeps at most {{max}} geo-fences: remove one first',

  // Firmware upgrades
  campaignNotFound: 'The upgrade campaign does not exist',
  campaignEnded: 'This upgrade campaign has ended: nothing is left to cancel',
  noUpgradeTargets: 'No device to upgrade: {{incompatible}} not compatible with the version, {{busy}} with an upgrade under way, {{current}} on this version already',

  // Device details: set parameters, history, energy
  paramNotWritable: 'Parameter {{id}} cannot be set on this device',
  paramWrongType: '{{name}}: the value is not a valid {{type}}',
  paramOutOfRange: '{{name}}: the value must be between {{min}} and {{max}}',
  paramNotInEnum: '{{name}}: choose one of its values',
  paramUnknown: 'The device type has no parameter {{id}}',
  historyTooManyRows: 'More than {{max}} rows match: choose a shorter range or fewer parameters',
  energyRangeTooLong: 'At most {{max}} days at this granularity: choose a shorter range or weeks or months',
  noEnergyCounters: 'This device type has no battery charge and discharge counters',
  locusTooManyFixes: 'More than {{max}} fixes in this range: choose a shorter range or the simplified track',

  // SIM cards and card orders
  cardsNotFound: 'These SIM cards do not exist: {{ids}}',
  cardsSharedOnly: 'Shared with you, not yours to change: {{iccids}}',
  iccidTaken: 'A SIM card with ICCID {{iccid}} already exists',
  noDevice: 'The device does not exist or is not yours to change',
  simInOtherDevice: 'This card’s number is already the SIM number of device {{sn}}',
  captchaNotFound: 'The captcha does not exist or has expired: ask for a new one',
  whitelistFull: 'The voice whitelist holds at most {{max}} numbers',
  preferencesFull: 'A user keeps at most {{max}} screen settings',
  whitelistHas: 'This number is already on the whitelist',
  carrierRefused: 'The carrier refused ({{code}}): {{message}}',
  ordersNotFound: 'These orders do not exist: {{ids}}',
  /** §8: the original console's own text; the console never shows it (lib/http.ts). */
  noCardOrderData: 'no card order data',
  orderNotUnpaid: 'Only an unpaid order can be changed, paid or cancelled',
  orderNotPaid: 'Only a paid order can be refunded',
  orderKeepsRecord: 'A paid or refunded order is kept as a record and cannot be deleted',
  paymentProviderFailed: 'The payment provider refused: {{message}}',
  priceNotFound: 'The price does not exist',
  priceDisabled: 'This price is no longer offered: choose another',
  priceTaken: 'The price list already has this plan',
  priceKindMismatch: 'Choose a price of the order’s kind',
  simulatedPaymentOnly: 'Only the simulated payment provider can be paid from the console',
  noCamera: 'This device has no camera',
  videoProviderFailed: 'The video provider refused: {{message}}',
  brokerHooksOff: 'The broker hooks are off: set BROKER_AUTH_SECRET on the console and give it to the broker',
  duplicateIccidRow: 'Same ICCID as row {{row}}',
  dateRequired: 'A date YYYY-MM-DD is required',
  cardExportTooMany: 'More than {{max}} SIM cards match: narrow the filters',

  // Stores, rentals and sales
  storesNotFound: 'These stores do not exist: {{ids}}',
  storeCodeTaken: 'A store with code {{code}} already exists',
  storeHasRentals: 'Store {{name}} has rentals on record: close it instead of deleting it',
  storeNotOpen: 'The store is not open: open it first',
  rentalNotFound: 'The rental does not exist',
  rentalNotReserved: 'This rental is no longer reserved',
  rentalNotOut: 'This pack is not out with a customer: the rental was returned, sold, lost or cancelled',
  rentalNotOverdue: 'Only an overdue rental can be marked lost',
  packRented: 'Pack {{sn}} is rented or reserved: return it first',
  packNotInStore: 'Pack {{sn}} is not stocked at this store',
  packFaulty: 'Pack {{sn}} is faulty: check it and clear its fault first',
  rentalNotLost: 'Only a lost pack’s discharge can be turned off from here',
  noDischargeSwitch: 'This pack’s type has no writable discharge switch',
  duplicateStoreCodeRow: 'Same store code as row {{row}}',
  sheetExportTooMany: 'More than {{max}} rows match: narrow the filters',
  unknownStoreCode: 'No store with code {{code}} among yours',
  unknownPackSn: 'No pack with SN {{sn}} among yours',
  packSold: 'Pack {{sn}} was sold',
  duplicatePackRow: 'Same pack as row {{row}}',
  dueBeforeStart: 'The due date must come after the start',
  amountInvalid: 'An amount of at least 0 with at most {{digits}} decimals is required',
  pricePerDayOrTotal: 'A rental has a price per day or a total price, one of them',
  dateTimeRequired: 'A date and time is required, e.g. 2025-03-01 09:00 or 2025-03-01T09:00:00Z',
  rentalImportState: 'A rental is imported active and a sale sold',
  packMovedOut: 'Pack {{sn}} is rented or reserved at its store: return it before moving it',

  // Firmware versions and their images
  versionNotFound: 'The firmware version does not exist',
  versionInUse: 'A running upgrade campaign uses this version: wait for it to end or cancel it first',
  versionReadOnly: 'This version was published by a user above you: you can use it but not change it',
  firmwareEmpty: 'The file is empty: choose the firmware image',
  firmwareTooLarge: 'The file is larger than {{max}} MB',
  uploadNotFound: 'This upload is no longer kept (uploads wait a day for their version): upload the file again',
  uploadTaken: 'This upload already belongs to another version: upload the file again',
  firmwareExternal: 'This version’s image is not on the console: download it from the version’s url',

  // Import and export
  fileRequired: 'An attachment is required',
  uploadMalformed: 'The upload is malformed: send one file in the multipart field "file"',
  importFormat: 'Only .xlsx or .xls files can be uploaded: delete this file and upload again',
  notSpreadsheet: 'This file is not a spreadsheet: upload an .xlsx or .xls workbook',
  importBusy: 'Other imports are running: please retry in a moment',
  importMissingColumns: 'Missing column(s): {{columns}}; download the template',
  importNoRows: 'The sheet has no data rows',
  importTooManyRows: 'At most {{max}} rows per file',
  importUnpackedTooLarge: 'This workbook unpacks to more than {{max}} MB: split it into smaller files',
  importTooManyCells: 'At most {{max}} cells (rows × columns) per file: delete the unused columns or split the file',
  importRace: 'Some SNs were added by someone else meanwhile: nothing was imported, please retry',
  exportTooMany: 'More than {{max}} devices match: narrow the filters',

  // Heavy reads: long ranges and exports (plugins/endpoint.ts, lib/heavy-reads.ts)
  heavyReadsPerUser: 'You already have {{max}} long reads or exports running: wait for them to finish',
  heavyReadsBusy: 'The server is busy with other long reads: please retry in a moment',
  queryTimeout: 'This read took too long and was stopped: choose a shorter range or narrower filters',
  alarmExportTooMany: 'More than {{max}} alarms match: narrow the filters',
  clientErrorExportTooMany: 'More than {{max}} errors match: narrow the filters',

  // A spreadsheet row's cell (the import report names row and column; zod issues map here by code)
  cellRequired: 'Required',
  unknownTypeCode: 'No device type with code {{code}}',
  unknownProjectName: 'No project named {{name}}',
  ambiguousProjectName: 'Several projects are named {{name}}',
  duplicateSnRow: 'Same SN as row {{row}}',
  numberRequired: 'A number is required',
  integerRequired: 'A whole number is required',
  numberRange: 'Must be between {{min}} and {{max}}',
  snPattern: 'Letters, digits and _ . : - only',
  digitsOnly: 'Digits only',
  phoneListPattern: 'Digits, spaces and + - ( ) , only',
  phonePattern: 'Digits, spaces and + - ( ) only',
  nulCharacter: 'Must not contain a NUL character',
  invalidValue: 'Invalid value',
} as const satisfies Record<string, string>;

export type RefusalReason = keyof typeof REFUSALS;
export const REFUSAL_REASONS = Object.keys(REFUSALS) as [RefusalReason, ...RefusalReason[]];
export type RefusalParams = Record<string, string | number>;

/** The English text of a refusal with its params filled in. */
export function refusalMessage(reason: RefusalReason, params: RefusalParams = {}): string {
  return REFUSALS[reason].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
