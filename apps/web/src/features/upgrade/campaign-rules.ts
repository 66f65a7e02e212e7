import { UPGRADE_ACTIVE_STATES, UPGRADE_FINAL_STATES } from '@iot/contract/plain';
import type { CampaignDto, FirmwareDto, UpgradeTargetState } from '@iot/contract';

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

/** A firmware version as the new-campaign form offers it: name, number, manufacturer and module. */
export function versionOption(v: Pick<FirmwareDto, 'id' | 'name' | 'softwareVersion' | 'manufacturer' | 'module'>) {
  return { id: v.id, name: v.name, softwareVersion: v.softwareVersion, detail: [v.manufacturer, v.module].filter(Boolean).join(' · ') };
}
