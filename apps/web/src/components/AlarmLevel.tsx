import type { CSSProperties } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ALARM_LEVELS } from '@iot/contract/plain';

/**
 * The one severity scale of alarm levels (decision 0023): levels ascend with severity, 4 is the
 * most severe (GB/T 32960's convention). Every place that shows a level (rule editor, bell,
 * notification, alarm list, device list and details) takes its colour and word from here; the
 * alarm e-mail uses the same words (server alarm.mail.ts SEVERITY_WORDS).
 *
 * Dark text on a light tint: each pair is at least 5:1 (WCAG AA), unlike antd's preset tag colours.
 */
export const SEVERITY_STYLES: Readonly<Record<number, CSSProperties>> = {
  0: { color: '#595959', background: '#fafafa', borderColor: '#d9d9d9' },
  1: { color: '#0958d9', background: '#e6f4ff', borderColor: '#91caff' },
  2: { color: '#876800', background: '#fffbe6', borderColor: '#ffe58f' },
  3: { color: '#ad4e00', background: '#fff7e6', borderColor: '#ffd591' },
  4: { color: '#a8071a', background: '#fff1f0', borderColor: '#ffa39e' },
};

/** "4 · Critical": the level's number and word (0: "None", a device without an active alarm). */
export function alarmLevelLabel(t: TFunction, level: number): string {
  if (level === 0) return t('common:severity.0');
  return t('common:severity.label', { level, word: t(`common:severity.${level}`, { defaultValue: String(level) }) });
}

/** The level as a tag of its colour and word. */
export function AlarmLevelTag({ level, style, 'data-testid': testId }: { level: number; style?: CSSProperties; 'data-testid'?: string }) {
  const { t } = useTranslation();
  return (
    <Tag
      // Not greyed out in a view-only (disabled) form: the colour is the point.
      disabled={false}
      style={{ marginInlineEnd: 8, ...(SEVERITY_STYLES[level] ?? SEVERITY_STYLES[0]), ...style }}
      data-severity={level}
      data-testid={testId}
    >
      {alarmLevelLabel(t, level)}
    </Tag>
  );
}

/** Options of a level picker (filters, the rule editor), most severe first. */
export function alarmLevelOptions(t: TFunction, withNone = false) {
  const levels = [...ALARM_LEVELS].reverse() as number[];
  return (withNone ? [...levels, 0] : levels).map((level) => ({ value: level, label: alarmLevelLabel(t, level) }));
}

/**
 * What the levels mean, on hover or focus of a small question mark: "4 Critical … 1 Warning, the
 * higher the more severe". Placed beside level filters and settings, never in a table header
 * (antd copies headers into an aria-hidden measuring row: a focusable button there fails axe).
 */
export function AlarmLevelLegend() {
  const { t } = useTranslation();
  const content = (
    <div data-testid="severity-legend-content">
      <Typography.Text style={{ color: 'inherit' }}>{t('common:severity.legend')}</Typography.Text>
      <Space direction="vertical" size={4} style={{ display: 'flex', marginTop: 6 }}>
        {[...ALARM_LEVELS].reverse().map((level) => (
          <AlarmLevelTag key={level} level={level} />
        ))}
      </Space>
    </div>
  );
  return (
    <Tooltip title={content} color="#fff" styles={{ container: { color: 'rgba(0,0,0,0.88)' } }}>
      <button
        type="button"
        aria-label={t('common:severity.legendLabel')}
        data-testid="severity-legend"
        // In a sortable column header: explaining the levels does not sort by them.
        onClick={(e) => e.stopPropagation()}
        style={{ border: 'none', background: 'none', padding: 0, cursor: 'help', color: 'inherit', display: 'inline-flex' }}
      >
        <QuestionCircleOutlined />
      </button>
    </Tooltip>
  );
}
