import { z } from 'zod';
import { FENCE_ACTIONS, FENCE_LIMITS } from './fence-rules.js';
import { PARAM_LIMITS, PATTERNS, PROTOCOL_LIMITS } from './limits.js';

/**
 * The commands the console sends to devices on `dev/<sn>/cmd` (or in an HTTP uplink's answer):
 * one envelope `{id, kind, payload, expiresAt}` for every kind, and one payload schema per kind.
 * docs/PROTOCOL.md "Command kinds" is the device side's reference: what each payload holds and
 * what the device answers. The server refuses to store a payload its kind's schema refuses.
 */

/** Every command kind the console sends. */
export const COMMAND_KINDS = [
  'setParams',
  'fenceSet',
  'fenceClose',
  'fenceRelock',
  'firmwareUpgrade',
  'firmwareCancel',
  'whitelist',
] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

export function isCommandKind(kind: unknown): kind is CommandKind {
  return typeof kind === 'string' && (COMMAND_KINDS as readonly string[]).includes(kind);
}

/** Whose firmware an upgrade replaces: the device's own, or an external device's attached to it. */
export const UPGRADE_TARGETS = ['device', 'external'] as const;
export type UpgradeTarget = (typeof UPGRADE_TARGETS)[number];

/** How a whitelist command changes the device's list: replace it, add to it, remove from it. */
export const WHITELIST_OPS = ['set', 'add', 'remove'] as const;
export type WhitelistOp = (typeof WHITELIST_OPS)[number];

/** The limits of command envelopes and payloads. */
export const COMMAND_LIMITS = {
  /** Command ids (the ack's `id` takes as many). */
  id: 64,
  /** Parameters one setParams command sets at most (as the set-parameters screen). */
  setParams: 100,
  semaphoreId: PARAM_LIMITS.semaphoreId,
  textValue: PROTOCOL_LIMITS.textValue,
  /** Fence ids: letters, digits and _ . - */
  fenceId: 64,
  /** Fence radius in meters. */
  radiusMin: FENCE_LIMITS.radiusMin,
  radiusMax: FENCE_LIMITS.radiusMax,
  /** Firmware version ids (the console's upgrade version id). */
  versionIdMax: 2_147_483_647,
  /** Firmware name, software version and module. */
  versionText: 64,
  url: 2048,
  /** Firmware image size in bytes. */
  sizeMax: 4 * 1024 ** 3,
  /** Numbers of the voice whitelist, and the length of one (digits, optional leading +). */
  whitelistNumbers: 20,
  phoneMin: 5,
  phoneMax: 20,
} as const;

/** A whitelist phone number: digits with an optional leading +. */
export const WHITELIST_NUMBER_PATTERN = /^\+?\d+$/;
/** A SHA-256 digest in hex (either case). */
export const SHA256_PATTERN = /^[0-9a-fA-F]{64}$/;

const fenceIdSchema = z.string().min(1).max(COMMAND_LIMITS.fenceId).regex(PATTERNS.code);
const versionIdSchema = z.number().int().positive().max(COMMAND_LIMITS.versionIdMax);
const versionText = z.string().trim().min(1).max(COMMAND_LIMITS.versionText);

/**
 * `setParams`: sets writable parameters. Maps semaphore ids to their new values (1 to 100 of
 * them), e.g. `{"10000030": true}`; the console checks them against the device's type first.
 */
export const setParamsPayloadSchema = z
  .record(
    z.string().min(1).max(COMMAND_LIMITS.semaphoreId),
    z.union([z.number().finite(), z.string().max(COMMAND_LIMITS.textValue), z.boolean()]),
  )
  .refine((v) => Object.keys(v).length > 0, 'at least one parameter to set')
  .refine((v) => Object.keys(v).length <= COMMAND_LIMITS.setParams, `at most ${COMMAND_LIMITS.setParams} parameters`);
export type SetParamsPayload = z.infer<typeof setParamsPayloadSchema>;

/**
 * `fenceSet`: keep a circular geo-fence (centre `lng`/`lat` in degrees, the coordinates of the
 * device's own GPS fixes; `radius` in whole meters) and do `action` when the device leaves it. A
 * fence with the same `fenceId` is replaced.
 */
export const fenceSetPayloadSchema = z.strictObject({
  fenceId: fenceIdSchema,
  lng: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  radius: z.number().int().min(COMMAND_LIMITS.radiusMin).max(COMMAND_LIMITS.radiusMax),
  action: z.enum(FENCE_ACTIONS),
});
export type FenceSetPayload = z.infer<typeof fenceSetPayloadSchema>;

/** `fenceClose`: remove the fence (its action stops; an unknown id is already removed). */
export const fenceClosePayloadSchema = z.strictObject({ fenceId: fenceIdSchema });
export type FenceClosePayload = z.infer<typeof fenceClosePayloadSchema>;

/** `fenceRelock`: lock again after the device was unlocked or let out of the fence (the spec's "re-locked"). */
export const fenceRelockPayloadSchema = z.strictObject({ fenceId: fenceIdSchema });
export type FenceRelockPayload = z.infer<typeof fenceRelockPayloadSchema>;

/**
 * `firmwareUpgrade`: download the image at `url` (http or https), check `size` and `sha256` when
 * given, install it on `target` (the device itself, or the external device attached to it) and
 * report `progress` acks (0–100) on the way, then `ok` or `error`.
 */
export const firmwareUpgradePayloadSchema = z.strictObject({
  /** The console's upgrade version id; `firmwareCancel` names it. */
  versionId: versionIdSchema,
  name: versionText,
  softwareVersion: versionText,
  /** The module the image is for (the version's "module"). */
  module: versionText,
  url: z.url({ protocol: /^https?$/ }).max(COMMAND_LIMITS.url),
  /** Bytes. */
  size: z.number().int().positive().max(COMMAND_LIMITS.sizeMax).optional(),
  sha256: z.string().regex(SHA256_PATTERN).optional(),
  target: z.enum(UPGRADE_TARGETS),
});
export type FirmwareUpgradePayload = z.infer<typeof firmwareUpgradePayloadSchema>;

/** `firmwareCancel`: stop the upgrade to this version if it is still running (nothing to stop is fine). */
export const firmwareCancelPayloadSchema = z.strictObject({ versionId: versionIdSchema });
export type FirmwareCancelPayload = z.infer<typeof firmwareCancelPayloadSchema>;

/**
 * `whitelist`: the numbers the device (its SIM's voice whitelist) may call and be called by for
 * alarms. `set` replaces the list (empty clears it); `add` and `remove` take at least one number.
 * At most 20 numbers, no number twice.
 */
export const whitelistPayloadSchema = z
  .strictObject({
    op: z.enum(WHITELIST_OPS),
    numbers: z
      .array(z.string().min(COMMAND_LIMITS.phoneMin).max(COMMAND_LIMITS.phoneMax).regex(WHITELIST_NUMBER_PATTERN))
      .max(COMMAND_LIMITS.whitelistNumbers),
  })
  .superRefine((p, ctx) => {
    if (p.op !== 'set' && p.numbers.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['numbers'], message: `at least one number to ${p.op}` });
    }
    p.numbers.forEach((n, i) => {
      if (p.numbers.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['numbers', i], message: `${n} appears twice` });
    });
  });
export type WhitelistPayload = z.infer<typeof whitelistPayloadSchema>;

/** The payload schema of each kind. */
export const COMMAND_PAYLOAD_SCHEMAS = {
  setParams: setParamsPayloadSchema,
  fenceSet: fenceSetPayloadSchema,
  fenceClose: fenceClosePayloadSchema,
  fenceRelock: fenceRelockPayloadSchema,
  firmwareUpgrade: firmwareUpgradePayloadSchema,
  firmwareCancel: firmwareCancelPayloadSchema,
  whitelist: whitelistPayloadSchema,
} as const satisfies Record<CommandKind, z.ZodType>;
export type CommandPayload<K extends CommandKind = CommandKind> = z.infer<(typeof COMMAND_PAYLOAD_SCHEMAS)[K]>;

/** The payload schema of `kind`. */
export function commandPayloadSchema<K extends CommandKind>(kind: K): (typeof COMMAND_PAYLOAD_SCHEMAS)[K] {
  return COMMAND_PAYLOAD_SCHEMAS[kind];
}

const envelope = <K extends CommandKind>(kind: K) =>
  z.object({
    id: z.string().min(1).max(COMMAND_LIMITS.id),
    kind: z.literal(kind),
    payload: COMMAND_PAYLOAD_SCHEMAS[kind],
    /** Epoch ms after which the device must not act on it. */
    expiresAt: z.number().int().nonnegative(),
  });

/** A command as the device receives it, its payload checked by its kind. */
export const commandEnvelopeSchema = z.discriminatedUnion('kind', [
  envelope('setParams'),
  envelope('fenceSet'),
  envelope('fenceClose'),
  envelope('fenceRelock'),
  envelope('firmwareUpgrade'),
  envelope('firmwareCancel'),
  envelope('whitelist'),
]);
export type CommandEnvelope = z.infer<typeof commandEnvelopeSchema>;
