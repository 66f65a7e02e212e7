import { useState } from 'react';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlarmLevelTag } from '../../components/AlarmLevel';
import { formatCount, formatTime } from '../../lib/format';
import { FIRST_SCREEN, useVoice } from './api';
import { PeriodSwitch } from './DefaultStyle';
import { alarmListLink, devicePage } from './links';
import { DashCard, HeadlineCards, Stat } from './parts';
import type { Days, HomeSummary, Voice } from './types';

/**
 * The voice style, for fleets that alert by phone: devices with alarm phone numbers, alarms that
 * called out, the recent call-outs and the voice minutes left on the fleet's SIM cards (unknown
 * when no card has voice data: never shown as 0).
 */
export function VoiceStyle({ summary }: { summary: HomeSummary | undefined }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<Days>(FIRST_SCREEN.days);
  const voice = useVoice(days);
  const state = { loading: voice.isPending, error: voice.isError, onRetry: () => void voice.refetch() };
  const data = voice.data;
  return (
    <div className="dash-grid" data-testid="home-style-voice">
      <HeadlineCards summary={summary} />
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <DashCard title={t('dashboard:voice.phones.title')} testId="home-voice-phones" {...state}>
            {data && (
              <>
                <div className="dash-stats">
                  <Stat label={t('dashboard:voice.phones.devices')} value={data.devicesWithPhones} testId="home-voice-devices" />
                </div>
                {summary && (
                  <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }}>
                    {t('dashboard:voice.phones.hint', { share: formatCount(data.devicesWithPhones), total: formatCount(summary.devices.total) })}
                  </Typography.Paragraph>
                )}
              </>
            )}
          </DashCard>
        </Col>
        <Col xs={24} md={8}>
          <DashCard
            title={t('dashboard:voice.callouts.title')}
            testId="home-voice-callouts"
            {...state}
            extra={<PeriodSwitch value={days} onChange={setDays} label={t('dashboard:period.label')} testId="home-voice-period" />}
          >
            {data && (
              <div className="dash-stats">
                <Stat label={t('dashboard:voice.callouts.today')} value={data.calloutAlarms.today} testId="home-voice-today" />
                <Stat label={t('dashboard:voice.callouts.period', { count: days })} value={data.calloutAlarms.period} testId="home-voice-period-count" />
              </div>
            )}
          </DashCard>
        </Col>
        <Col xs={24} md={8}>
          <DashCard title={t('dashboard:voice.minutes.title')} testId="home-voice-minutes" {...state}>
            {data && <Minutes minutes={data.voiceMinutes} />}
          </DashCard>
        </Col>
      </Row>
      <DashCard title={t('dashboard:voice.recent.title')} testId="home-voice-recent" {...state}>
        {data && <Recent items={data.recent} />}
      </DashCard>
    </div>
  );
}

/** Minutes left, or "unknown" with why: no card of the fleet has reported voice data. */
function Minutes({ minutes }: { minutes: Voice['voiceMinutes'] }) {
  const { t } = useTranslation();
  if (minutes.left === null) {
    return (
      <div data-testid="home-voice-minutes-unknown">
        <span className="dash-stat-value">{t('dashboard:unknown')}</span>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }}>
          {minutes.cards === 0 ? t('dashboard:voice.minutes.noCards') : t('dashboard:voice.minutes.noData', { count: minutes.cards })}
        </Typography.Paragraph>
      </div>
    );
  }
  return (
    <div>
      <div className="dash-stats">
        <Stat label={t('dashboard:voice.minutes.left')} value={minutes.left} testId="home-voice-minutes-left" />
      </div>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }} data-testid="home-voice-minutes-known">
        {t('dashboard:voice.minutes.known', { known: formatCount(minutes.known), cards: formatCount(minutes.cards) })}
      </Typography.Paragraph>
    </div>
  );
}

function Recent({ items }: { items: Voice['recent'] }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="home-voice-recent-empty">
        {t('dashboard:voice.recent.none')}
      </Typography.Text>
    );
  }
  return (
    <ul className="dash-recent" data-testid="home-voice-recent-list">
      {items.map((a) => (
        <li key={a.alarmId}>
          <AlarmLevelTag level={a.level} />
          <Link to={devicePage(a.deviceId)}>{a.deviceName}</Link>
          <span className="dash-recent-phones">{a.phones.join(', ')}</span>
          <Sent notices={a.notices} />
          <Link
            to={`${alarmListLink()}?alarmId=${a.alarmId}`}
            className="dash-recent-time"
            aria-label={t('dashboard:voice.recent.open', { device: a.deviceName, time: formatTime(a.startedAt) })}
          >
            {formatTime(a.startedAt)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** What was sent for one alarm: the non-zero counts of its SMS and calls, or "nothing sent". */
function Sent({ notices }: { notices: Voice['recent'][number]['notices'] }) {
  const { t } = useTranslation();
  const parts = (['sms', 'calls', 'failed', 'waiting', 'limited'] as const)
    .filter((k) => notices[k] > 0)
    .map((k) => t(`dashboard:voice.recent.sent.${k}`, { count: notices[k] }));
  return (
    <span className="dash-recent-sent" data-testid="home-voice-recent-sent">
      {parts.length > 0 ? parts.join(' · ') : t('dashboard:voice.recent.sent.nothing')}
    </span>
  );
}
