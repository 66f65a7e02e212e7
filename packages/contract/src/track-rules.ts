/**
 * Tracks' limits and rules (zod-free: the console reads them through `@iot/contract/plain`).
 * Schemas: track.ts; design: docs/decisions/0032-track-reads-and-simplification.md.
 */

/** The longest range a track may be asked for. */
export const LOCUS_MAX_RANGE_DAYS = 31;
/** Fixes a track reads at most (31 days at one fix every 10 s is 267,840). */
export const LOCUS_MAX_FIXES = 300_000;
/** Points a track answer keeps by default, and at most (Douglas–Peucker with a budget). */
export const LOCUS_DEFAULT_POINTS = 5_000;
export const LOCUS_MAX_POINTS = 20_000;
/** Below this speed a device is still; still this long or longer is a stop. */
export const STOP_SPEED_KMH = 1;
export const STOP_MIN_SECONDS = 180;
/** The track screen opens on this long, up to the device's newest fix. */
export const LOCUS_DEFAULT_SPAN_MS = 86_400_000;
