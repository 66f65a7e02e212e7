import { z } from 'zod';
import { idNumberSchema } from './envelope.js';
import { FENCE_ACTIONS, FENCE_LIMITS, FENCE_OPS, FENCE_STATES } from './fence-rules.js';

/**
 * Geo-fences issued to devices (fence-rules.ts has the states and limits): what an operator sends
 * and what the fence list answers, each fence with its whole history.
 */

/** POST /device/setfence: a circle round lng/lat (degrees, the device's GPS datum), radius in metres. */
export const fenceSetSchema = z.object({
  /** The device. */
  id: idNumberSchema,
  lng: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  radius: z.number().int().min(FENCE_LIMITS.radiusMin).max(FENCE_LIMITS.radiusMax),
  /** What the device does when it leaves: raise an alarm, or lock (cut its output). */
  action: z.enum(FENCE_ACTIONS),
  /** The console also raises an alarm when the device comes (back) in. */
  alarmOnEnter: z.boolean().default(false),
});
export type FenceSet = z.input<typeof fenceSetSchema>;

/** POST /device/setclosefence and /device/setrefence: the fence (its `id` in the fence list). */
export const fenceRefSchema = z.object({ fenceId: idNumberSchema });
export type FenceRef = z.infer<typeof fenceRefSchema>;

/** One transition of a fence: when, the state it reached, who asked, and what the device said. */
export const fenceEventSchema = z.object({
  at: z.string(),
  state: z.enum(FENCE_STATES),
  /** What was asked: set, remove (close) or re-lock. A failed remove leaves the fence as it was. */
  op: z.enum(FENCE_OPS),
  userName: z.string().nullable(),
  /** The device's reason when it refused, else empty. */
  reason: z.string(),
  /** It failed because the device did not answer before the command expired. */
  timedOut: z.boolean(),
});
export type FenceEvent = z.infer<typeof fenceEventSchema>;

export const fenceDtoSchema = z
  .object({
    id: z.number().int(),
    deviceId: z.number().int(),
    /** The id the device keeps it under (`fence-<id>`). */
    fenceId: z.string(),
    lng: z.number(),
    lat: z.number(),
    radius: z.number().int(),
    action: z.enum(FENCE_ACTIONS),
    alarmOnEnter: z.boolean(),
    state: z.enum(FENCE_STATES),
    /** A command for it waits for the device's answer (remove or re-lock; `set` while state is set). */
    pending: z.enum(FENCE_OPS).nullable(),
    /** Where the device was at its newest fix checked against the fence; null: not known yet. */
    inside: z.boolean().nullable(),
    createdAt: z.string(),
    createdByName: z.string().nullable(),
    /** Oldest first. */
    history: z.array(fenceEventSchema),
  })
  .meta({ id: 'Fence' });
export type FenceDto = z.infer<typeof fenceDtoSchema>;

export const fenceListSchema = z.object({ items: z.array(fenceDtoSchema) });
export type FenceList = z.infer<typeof fenceListSchema>;
