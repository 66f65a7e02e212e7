import type { CSSProperties } from 'react';
import { Progress, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignDto, CampaignState, UpgradeTargetState } from '@iot/contract';
import { campaignFigures } from './campaign-rules';

/**
 * One colour per kind of state, always with the state's word: waiting grey, under way blue,
 * succeeded green, failed red, timed out amber, cancelled violet. Dark text on a light tint, each
 * pair at least 4.5:1 (WCAG AA), which antd's preset tag colours are not.
 */
const TONES = {
  waiting: { color: '#595959', background: '#fafafa', borderColor: '#d9d9d9' },
  active: { color: '#0958d9', background: '#e6f4ff', borderColor: '#91caff' },
  good: { color: '#237804', background: '#f6ffed', borderColor: '#b7eb8f' },
  bad: { color: '#a8071a', background: '#fff1f0', borderColor: '#ffa39e' },
  late: { color: '#ad4e00', background: '#fff7e6', borderColor: '#ffd591' },
  stopped: { color: '#531dab', background: '#f9f0ff', borderColor: '#d3adf7' },
} satisfies Record<string, CSSProperties>;

export const TARGET_TONES: Record<UpgradeTargetState, CSSProperties> = {
  queued: TONES.waiting,
  sent: TONES.active,
  downloading: TONES.active,
  installing: TONES.active,
  verifying: TONES.active,
  succeeded: TONES.good,
  failed: TONES.bad,
  timedOut: TONES.late,
  cancelled: TONES.stopped,
};

const CAMPAIGN_TONES: Record<CampaignState, CSSProperties> = {
  running: TONES.active,
  finished: TONES.good,
  cancelled: TONES.stopped,
};

export function TargetStateTag({ state, testId }: { state: UpgradeTargetState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag style={TARGET_TONES[state]} data-state={state} data-testid={testId}>
      {t(`campaigns:targetState.${state}`)}
    </Tag>
  );
}

export function CampaignStateTag({ state, testId }: { state: CampaignState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag style={CAMPAIGN_TONES[state]} data-state={state} data-testid={testId}>
      {t(`campaigns:state.${state}`)}
    </Tag>
  );
}

const FIGURE_TONES = {
  succeeded: TONES.good,
  failed: TONES.bad,
  timedOut: TONES.late,
  cancelled: TONES.stopped,
  inProgress: TONES.active,
} as const;

/** The counts as words and numbers ("Succeeded 40"), the zero ones left out. */
export function CampaignCounts({ counts, testId }: { counts: CampaignDto['counts']; testId?: string }) {
  const { t } = useTranslation();
  const figures = campaignFigures(counts);
  return (
    <Space size={[4, 4]} wrap data-testid={testId}>
      {(Object.keys(figures) as (keyof typeof figures)[])
        .filter((k) => figures[k] > 0)
        .map((k) => (
          <Tag key={k} style={{ ...FIGURE_TONES[k], marginInlineEnd: 0 }} data-figure={k} data-count={figures[k]}>
            {t(`campaigns:figures.${k}`, { count: figures[k] })}
          </Tag>
        ))}
    </Space>
  );
}

/** A labelled progress bar (screen readers read the name and the percent). */
export function UpgradeProgress({ percent, label, status, testId }: { percent: number; label: string; status?: 'success' | 'exception' | 'normal' | 'active'; testId?: string }) {
  return <Progress percent={percent} size="small" status={status} aria-label={label} data-testid={testId} data-percent={percent} style={{ minWidth: 120, margin: 0 }} />;
}
