/** Parameters the console's device pages know by semaphore id, and when a value is stale. */

/** A value older than this many seconds is shown as stale. */
export const STALE_AFTER_SECONDS = 300;

/**
 * The parameters energy is computed from (the built-in battery type's): the pack voltage and the
 * cumulative charge and discharge counters in Ah. A type that has all three gets the energy tab.
 */
export const ENERGY_PARAMS = { packVoltage: '01111001', totalCharge: '02117001', totalDischarge: '02116001' } as const;

/**
 * The battery pack view: a type whose parameters include these shows cell voltages as a bar
 * chart (cell ids `01117NNN`, temperatures `01119NNN`: docs/PROTOCOL.md).
 */
export const PACK_PARAMS = {
  packVoltage: '01111001',
  current: '01112001',
  soc: '02109001',
  state: '10000006',
  cellVoltagePrefix: '01117',
  cellTempPrefix: '01119',
} as const;

/**
 * A battery's state on the home dashboard, from the sign of its current (PACK_PARAMS.current,
 * charging > 0): idle while |current| is below BATTERY_IDLE_CURRENT_A (a resting pack still draws
 * its own electronics' ~0.1 A).
 */
export const BATTERY_STATES = ['charging', 'discharging', 'idle'] as const;
export type BatteryState = (typeof BATTERY_STATES)[number];
export const BATTERY_IDLE_CURRENT_A = 0.3;
