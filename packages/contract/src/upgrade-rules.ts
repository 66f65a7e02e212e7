/**
 * Firmware upgrades (§2 /upgrade/version, /upgrade/device, /upgrade/external; §3 upgrade version;
 * §7 Upgrade and Hardware). Zod-free: the console reads these.
 *
 * A campaign rolls one version out to devices. Each target device moves through
 * `queued` (waiting for a slot of the campaign's concurrency, or for the device to come online)
 * → `sent` (the firmwareUpgrade command is out) → `downloading` (percent) → `installing` →
 * `verifying` (the device said ok; waiting for it to report the new version in its status)
 * and ends `succeeded`, `failed` (the device's reason), `timedOut` (a stage outlasted the
 * campaign's stage timeout on the last attempt, or the deadline passed) or `cancelled`.
 * Every non-final state has a deadline, so no device stays in progress.
 */
export const UPGRADE_TARGET_STATES = [
  'queued',
  'sent',
  'downloading',
  'installing',
  'verifying',
  'succeeded',
  'failed',
  'timedOut',
  'cancelled',
] as const;
export type UpgradeTargetState = (typeof UPGRADE_TARGET_STATES)[number];

export const UPGRADE_FINAL_STATES: readonly UpgradeTargetState[] = ['succeeded', 'failed', 'timedOut', 'cancelled'];
/** States with a command out to the device (a cancel tells it with firmwareCancel). */
export const UPGRADE_ACTIVE_STATES: readonly UpgradeTargetState[] = ['sent', 'downloading', 'installing', 'verifying'];

/** A campaign runs until every target has ended (`finished`) or the operator cancels it. */
export const CAMPAIGN_STATES = ['running', 'finished', 'cancelled'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const UPGRADE_LIMITS = {
  nameMax: 64,
  infoMax: 1000,
  urlMax: 2048,
  /** Devices sent the command at once (a wave). */
  concurrencyMin: 1,
  concurrencyMax: 1000,
  /** Seconds one stage (sent, downloading, installing, verifying) may last without news. */
  stageTimeoutMin: 10,
  stageTimeoutMax: 86_400,
  retriesMax: 10,
  /** Hours a campaign may run before what has not started times out. */
  deadlineHoursMax: 24 * 90,
  /** Devices one campaign names by selection. */
  selectedMax: 10_000,
  /** Devices one campaign may target (by selection or filter). */
  targetsMax: 100_000,
} as const;

/** The campaign's defaults, as the form proposes them. */
export const UPGRADE_DEFAULTS = {
  concurrency: 50,
  stageTimeoutSec: 600,
  retries: 2,
  deadlineHours: 72,
} as const;

/**
 * The reasons and log messages the console itself writes for a device's upgrade (campaign.repo.ts,
 * campaign.engine.ts), so the console can show them in the reader's language; anything else is the
 * device's own words, shown as they came. `value`: the part the text carries (a stage, a user, a
 * version, an error).
 */
const CONSOLE_REASONS = [
  { key: 'stageTimeoutRetry', re: /^no answer while (\w+): another attempt follows$/ },
  { key: 'stageTimeout', re: /^no answer while (\w+)$/ },
  { key: 'deadline', re: /^the campaign’s deadline passed$/ },
  { key: 'cancelledBy', re: /^cancelled by (.+)$/ },
  { key: 'notSent', re: /^not sent: (.+)$/ },
  { key: 'reports', re: /^the device reports (.+)$/ },
  { key: 'saysOk', re: /^the device says ok$/ },
] as const;
export type UpgradeConsoleReason = (typeof CONSOLE_REASONS)[number]['key'];

export function consoleReason(text: string): { key: UpgradeConsoleReason; value: string } | undefined {
  for (const r of CONSOLE_REASONS) {
    const m = r.re.exec(text);
    if (m) return { key: r.key, value: m[1] ?? '' };
  }
  return undefined;
}
