/**
 * Operation-log actions (`<entity>.<verb>`): every state-changing route declares one of these
 * (`config.audit` on the server), and the console names each in the UI language
 * (`logs:actions.<entity>.<verb>`; scripts/i18n-check.mjs fails the build when one is missing).
 * One action a line, in single quotes: the check reads this file as text.
 */
export const AUDIT_ACTIONS = [
  'user.add',
  'user.edit',
  'user.delete',
  'user.repassword',
  'user.unlock',
  'user.changepassword',
  'user.preferences',
  'email.add',
  'email.delete',
  'role.add',
  'role.edit',
  'role.delete',
  'role.setpermission',
  'permission.add',
  'permission.edit',
  'permission.delete',
  'menu.add',
  'menu.edit',
  'menu.delete',
  'devicetype.add',
  'devicetype.edit',
  'devicetype.delete',
  'devicetype.setparam',
  'devicetype.setalarm',
  'project.add',
  'project.edit',
  'project.delete',
  'project.users',
  'roadsection.add',
  'roadsection.edit',
  'roadsection.delete',
  'device.add',
  'device.edit',
  'device.delete',
  'device.move',
  'device.import',
  'device.credential',
  'device.setparams',
  'fence.set',
  'fence.close',
  'fence.relock',
  'firmware.upload',
  'firmware.add',
  'firmware.edit',
  'firmware.delete',
  'external.add',
  'external.delete',
  'external.deletelogs',
  'external.setupgrade',
  'external.closeupgrade',
  'alarm.process',
  'card.add',
  'card.edit',
  'card.delete',
  'card.import',
  'card.whitelist',
  'cardorder.add',
  'cardorder.edit',
  'cardorder.delete',
  'cardorder.simulatepay',
  'cardprice.add',
  'cardprice.edit',
  'cardprice.delete',
  'store.add',
  'store.edit',
  'store.delete',
  'store.stock',
  'store.unstock',
  'store.clearfault',
  'store.import',
  'rent.add',
  'rent.activate',
  'rent.cancel',
  'rent.lose',
  'rent.return',
  'rent.overdue',
  'upgrade.start',
  'upgrade.cancel',
  'video.open',
  'site.edit',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The object kind of an action: the part before the dot. */
export type AuditEntity = AuditAction extends `${infer E}.${string}` ? E : never;

export function auditEntityOf(action: string): string {
  return action.split('.')[0] ?? action;
}

/** Object kinds the operation log records, in the order of AUDIT_ACTIONS. */
export const AUDIT_ENTITIES = [...new Set(AUDIT_ACTIONS.map(auditEntityOf))] as AuditEntity[];
