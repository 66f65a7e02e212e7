import { UPGRADE_ACTIVE_STATES, UPGRADE_FINAL_STATES } from '@iot/contract/plain';
import type { CampaignDto, UpgradeTargetState } from '@iot/contract';

/** A device's upgrade has ended (succeeded, failed, timed out or cancelled): nothing moves any more. */
export const isFinal = (state: UpgradeTargetState) => UPGRADE_FINAL_STATES.includes(state);

/** The five figures an operator follows: ended three ways or cancelled, and what is still under way. */
export function campaignFigures(counts: CampaignDto['counts']) {
  const n = (s: UpgradeTargetState) => counts[s] ?? 0;
  return {
    succeeded: n('succeeded'),
    failed: n('failed'),
    timedOut: n('timedOut'),
    cancelled: n('cancelled'),
    inProgress: n('queued') + UPGRADE_ACTIVE_STATES.reduce((sum, s) => sum + n(s), 0),
  };
}

/** A firmware version as the new-campaign form offers it. */
export interface VersionOption {
  id: number;
  name: string;
  softwareVersion: string;
  /** Manufacturer and module, when known. */
  detail: string;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** GET /upgrade/list rows read tolerantly: a row without a numeric id is left out, a missing text is empty. */
export function versionOptions(rows: readonly unknown[] | undefined): VersionOption[] {
  return (rows ?? []).flatMap((row) => {
    const r = (row ?? {}) as Record<string, unknown>;
    if (typeof r.id !== 'number') return [];
    const detail = [text(r.manufacturer), text(r.module)].filter(Boolean).join(' · ');
    return [{ id: r.id, name: text(r.name), softwareVersion: text(r.softwareVersion), detail }];
  });
}
