import { z } from 'zod';
import { pageOf, pageQuerySchema } from './envelope.js';
import { DASHBOARD_STYLES, HOME_DEVICE_STATES } from './enums.js';
import { HOME_LIMITS } from './limits.js';

/**
 * The home dashboard (§1, §7 /home/*; issue #34): figures of the caller's fleet, scoped like the
 * device and alarm lists (its own subtree and the projects it sees). Every figure is counted by
 * the database; "unknown" is null, never 0.
 */

/** The period of the trend and top-5 figures: the last 7 or 30 local days, today included. */
const days = z.coerce
  .number({ message: 'days is 7 or 30' })
  .refine((v) => (HOME_LIMITS.days as readonly number[]).includes(v), 'days is 7 or 30')
  .default(7);

function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone (`Europe/Madrid`, `UTC`): local days start at its midnight. */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/, { message: 'an IANA time zone such as Europe/Madrid', abort: true })
  .refine(isTimeZone, 'an IANA time zone such as Europe/Madrid');

/** `?days=7|30&tz=<IANA>`: /home/alarmnum, /home/gettop5, /home/battery, /home/voice. */
export const homePeriodQuerySchema = z.object({
  days,
  tz: timeZoneSchema.default('UTC'),
});
export type HomePeriodQuery = z.input<typeof homePeriodQuerySchema>;

/** Devices by state. `offline` includes `neverSeen` (devices that never connected). */
export const homeDeviceTotalsSchema = z
  .object({
    total: z.number().int(),
    online: z.number().int(),
    offline: z.number().int(),
    /** Devices with at least one open (not ended) alarm. */
    alarming: z.number().int(),
    /** Devices never seen online (no last-seen time). */
    neverSeen: z.number().int(),
  })
  .meta({ id: 'HomeDeviceTotals' });
export type HomeDeviceTotals = z.infer<typeof homeDeviceTotalsSchema>;

/** GET /home/list: the headline cards in one call. */
export const homeSummarySchema = z
  .object({
    devices: homeDeviceTotalsSchema,
    projects: z.object({ total: z.number().int() }),
    alarms: z.object({
      /** Started since the caller's local midnight (`tz`, UTC by default). */
      today: z.number().int(),
      /** Not handled yet (state `untreated`), active or ended. */
      untreated: z.number().int(),
      total: z.number().int(),
    }),
    /** The caller's stored dashboard style. */
    style: z.enum(DASHBOARD_STYLES),
  })
  .meta({ id: 'HomeSummary' });
export type HomeSummary = z.infer<typeof homeSummarySchema>;

/** `?tz=<IANA>`: the local midnight of "today" (/home/list, /home/levelnum). */
export const homeTodayQuerySchema = z.object({ tz: timeZoneSchema.default('UTC') });
export type HomeTodayQuery = z.input<typeof homeTodayQuerySchema>;

/** GET /home/projectlist: the caller's projects with the most devices. */
export const homeProjectListSchema = z
  .object({
    /** Every project the caller sees. */
    total: z.number().int(),
    items: z
      .array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          devices: z.number().int(),
          online: z.number().int(),
          alarming: z.number().int(),
          /** The project's weather switch: the card then shows its forecast (GET /project/weather). */
          weather: z.boolean(),
        }),
      )
      .max(HOME_LIMITS.projects),
  })
  .meta({ id: 'HomeProjectList' });
export type HomeProjectList = z.infer<typeof homeProjectListSchema>;

/** GET /home/levelnum: alarms per level, always the four levels 1..4 in order (4 most severe). */
export const homeLevelNumSchema = z
  .object({
    levels: z
      .array(
        z.object({
          level: z.number().int().min(1).max(4),
          untreated: z.number().int(),
          today: z.number().int(),
          total: z.number().int(),
        }),
      )
      .length(4),
  })
  .meta({ id: 'HomeLevelNum' });
export type HomeLevelNum = z.infer<typeof homeLevelNumSchema>;

/** GET /home/alarmnum: alarms started per local day and level, `days` entries, oldest first. */
export const homeAlarmNumSchema = z
  .object({
    days: z.array(
      z.object({
        date: z.string(),
        /** [level 1, level 2, level 3, level 4]. */
        counts: z.array(z.number().int()).length(4),
      }),
    ),
  })
  .meta({ id: 'HomeAlarmNum' });
export type HomeAlarmNum = z.infer<typeof homeAlarmNumSchema>;

/** GET /home/gettop5: devices and projects with the most alarms started in the period. */
export const homeTop5Schema = z
  .object({
    devices: z
      .array(z.object({ id: z.number().int(), name: z.string(), sn: z.string(), count: z.number().int() }))
      .max(HOME_LIMITS.top),
    projects: z
      .array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() }))
      .max(HOME_LIMITS.top),
  })
  .meta({ id: 'HomeTop5' });
export type HomeTop5 = z.infer<typeof homeTop5Schema>;

export const homeDeviceListQuerySchema = pageQuerySchema.extend({
  state: z.enum(HOME_DEVICE_STATES).default('all'),
});
export type HomeDeviceListQuery = z.input<typeof homeDeviceListQuerySchema>;

export const homeDeviceRowSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  name: z.string(),
  projectId: z.number().int().nullable(),
  projectName: z.string().nullable(),
  online: z.boolean(),
  /** Null: never seen. */
  lastSeenAt: z.string().nullable(),
  /** Open (not ended) alarms. */
  openAlarms: z.number().int(),
  /** The highest level among its open alarms, 0 without one. */
  maxLevel: z.number().int().min(0).max(4),
});
export type HomeDeviceRow = z.infer<typeof homeDeviceRowSchema>;
export const homeDevicePageSchema = pageOf(homeDeviceRowSchema).meta({ id: 'HomeDevicePage' });

/**
 * GET /home/battery: battery-type devices (those reporting SOC 02109001, current 01112001, cell
 * voltages 01117xxx or cell temperatures 01119xxx). Figures the devices never sent are unknown.
 */
const deviceRef = { id: z.number().int(), name: z.string(), sn: z.string() };
export const homeBatterySchema = z
  .object({
    soc: z.object({
      /** Devices per 10 % band of their latest SOC: 0–10 %, 10–20 %, …, 90–100 %. */
      buckets: z.array(z.number().int()).length(10),
      /** Battery devices without a SOC value. */
      unknown: z.number().int(),
    }),
    states: z.object({
      charging: z.number().int(),
      discharging: z.number().int(),
      idle: z.number().int(),
      unknown: z.number().int(),
    }),
    /** Per local day of the period, oldest first; null when no device reported energy that day. */
    energy: z.array(
      z.object({ date: z.string(), chargedKwh: z.number().nullable(), dischargedKwh: z.number().nullable() }),
    ),
    lowestSoc: z.array(z.object({ ...deviceRef, soc: z.number() })).max(HOME_LIMITS.top),
    hottest: z.array(z.object({ ...deviceRef, temperature: z.number() })).max(HOME_LIMITS.top),
    /** Largest spread between a device's highest and lowest cell voltage, in millivolts. */
    imbalance: z.array(z.object({ ...deviceRef, deltaMv: z.number() })).max(HOME_LIMITS.top),
  })
  .meta({ id: 'HomeBattery' });
export type HomeBattery = z.infer<typeof homeBatterySchema>;

/**
 * GET /home/voice: for fleets that alert by phone. An alarm calls out when it starts on a device
 * with alarm phone numbers and its level is at least the device's warning setting (0: every
 * level); the alarm row records it (`callout`), and the SMS and calls made for it are its notices
 * (decision 0037): `recent[].sent` says what reached the provider, what failed and what waits.
 */
export const homeVoiceSchema = z
  .object({
    /** Devices with at least one alarm phone number. */
    devicesWithPhones: z.number().int(),
    /** Alarms that called out, started today (local) and in the period. */
    calloutAlarms: z.object({ today: z.number().int(), period: z.number().int() }),
    /** The latest alarms that called out, newest first. */
    recent: z
      .array(
        z.object({
          alarmId: z.number().int(),
          deviceId: z.number().int(),
          deviceName: z.string(),
          level: z.number().int(),
          startedAt: z.string(),
          /** The device's alarm phone numbers now, split at the commas. */
          phones: z.array(z.string()),
          /**
           * The alarm's notices (SMS and calls to the device's and users' numbers): accepted by the
           * provider per channel, failed for good, still to send (or retried), and held back by
           * the rate limits. All zero when nothing was sent (no provider, or a demo device).
           */
          notices: z.object({
            sms: z.number().int(),
            calls: z.number().int(),
            failed: z.number().int(),
            waiting: z.number().int(),
            limited: z.number().int(),
          }),
        }),
      )
      .max(HOME_LIMITS.recent),
    /**
     * Voice minutes of the SIM cards of the caller's devices (card ICCID or MSISDN = the device's
     * SIM number). `left`: the sum of allowance − used over the cards with voice data, null when
     * none has any (unknown, never 0); `cards`: linked cards; `known`: those with voice data.
     */
    voiceMinutes: z.object({ left: z.number().nullable(), cards: z.number().int(), known: z.number().int() }),
  })
  .meta({ id: 'HomeVoice' });
export type HomeVoice = z.infer<typeof homeVoiceSchema>;
