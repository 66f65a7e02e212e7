import { List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlarmNoticeDto } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { Spinner } from '../../components/Spinner';
import { useAlarmNotices } from './api';

const STATE_COLORS: Record<AlarmNoticeDto['state'], string> = { pending: 'processing', sent: 'success', failed: 'error', limited: 'warning' };

/** One line of a notice: channel, whom, where it stands, and its attempts. */
function NoticeLine({ n }: { n: AlarmNoticeDto }) {
  const { t } = useTranslation();
  const last = n.tries[n.tries.length - 1];
  const to = n.recipient === 'device' ? t('alarms:notices.devicePhone', { phone: n.phone }) : t('alarms:notices.userPhone', { user: n.username ?? '—', phone: n.phone });
  return (
    <List.Item data-testid={`alarm-notice-${n.id}`}>
      <span>
        <Tag>{t(`alarms:notices.channels.${n.channel}`)}</Tag>
        {to}{' '}
        <Tag color={STATE_COLORS[n.state]}>{t(`alarms:notices.states.${n.state}`)}</Tag>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {n.sentAt ? parseTime(n.sentAt) : parseTime(n.createdAt)}
          {n.attempts > 0 && ` · ${t('alarms:notices.attempts', { count: n.attempts })}`}
          {n.nextAt && ` · ${t('alarms:notices.next', { time: parseTime(n.nextAt) })}`}
          {last && !last.ok && ` · ${last.code}: ${last.message}`}
        </Typography.Text>
        {last?.reason && (
          // Refused for good: said in the user's words, with what to check.
          <Typography.Paragraph type="danger" style={{ fontSize: 12, margin: 0 }} data-testid={`alarm-notice-reason-${n.id}`}>
            {t('alarms:notices.final', { reason: t(`alarms:notices.reasons.${last.reason}`) })}
          </Typography.Paragraph>
        )}
      </span>
    </List.Item>
  );
}

/** The alarm's SMS and voice calls (issue #39), shown when its row in the alarm list is opened. */
export function AlarmNotices({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation();
  const { data, isLoading } = useAlarmNotices(alarmId);
  if (isLoading) return <Spinner />;
  return (
    <div data-testid={`alarm-notices-${alarmId}`}>
      <Typography.Text strong>{t('alarms:notices.title')}</Typography.Text>
      {(data ?? []).length === 0 ? (
        <Typography.Paragraph type="secondary">{t('alarms:notices.none')}</Typography.Paragraph>
      ) : (
        <List size="small" dataSource={data} renderItem={(n) => <NoticeLine n={n} />} />
      )}
    </div>
  );
}
