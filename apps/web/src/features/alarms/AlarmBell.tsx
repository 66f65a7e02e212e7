import { useEffect, useRef } from 'react';
import { App, Badge, Button, Empty, List, Popover, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ALARM_NOTIFY_LEVEL, LiveType } from '@iot/contract/plain';
import { AlarmLevelTag, alarmLevelLabel } from '../../components/AlarmLevel';
import { IconButton } from '../../components/IconButton';
import { parseTime } from '../../lib/format';
import { live } from '../../lib/live';
import { useSession } from '../../lib/session';
import { useAlarmBell } from './api';
import { alarmKeys, deviceKeys } from '../../lib/query-keys';
import { alarmText } from './labels';

export const ALARM_PAGE = '/project/alarminfo';
/** The alarm page showing one alarm (the alarm e-mail links the same address). */
export const alarmLink = (id: number) => `${ALARM_PAGE}?alarmId=${id}`;

/**
 * The navbar bell: untreated alarms the user may see and the newest ones. Live ALARMS events
 * refresh it (and every alarm list) without reloading; an alarm that starts at the user's pop-up
 * level or above (profile page; levels 3–4 by default) raises a notification with a link to it.
 */
export function AlarmBell({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data } = useAlarmBell(enabled);
  const popupLevel = useSession().user?.alarmPopupLevel ?? ALARM_NOTIFY_LEVEL;
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const off = live.subscribe((m) => {
      if (m.type !== LiveType.ALARMS) return;
      // Alarm lists, the bell and the devices' warning levels: one refresh per 300 ms however many
      // alarms arrive.
      refresh.current ??= setTimeout(() => {
        refresh.current = null;
        void qc.invalidateQueries({ queryKey: alarmKeys.all });
        void qc.invalidateQueries({ queryKey: deviceKeys.all });
      }, 300);
      if (m.event !== 'started') return;
      // Most severe first: when many start at once, the three shown are the worst.
      const shown = m.alarms.filter((x) => x.level >= popupLevel).sort((x, y) => y.level - x.level).slice(0, 3);
      for (const a of shown) {
        notification[a.level >= 4 ? 'error' : 'warning']({
          key: `alarm-${a.id}`,
          message: t('alarms:notification.title', { severity: alarmLevelLabel(t, a.level), device: a.deviceName }),
          description: (
            <span data-testid="alarm-notification" data-alarm-id={a.id}>
              <AlarmLevelTag level={a.level} data-testid={`alarm-notification-level-${a.id}`} />
              {alarmText(a)} · {a.value}{' '}
              <Typography.Link onClick={() => void navigate(alarmLink(a.id))} data-testid={`alarm-notification-open-${a.id}`}>
                {t('alarms:notification.open')}
              </Typography.Link>
            </span>
          ),
        });
      }
    });
    return () => {
      off();
      if (refresh.current) clearTimeout(refresh.current);
      refresh.current = null;
    };
  }, [enabled, popupLevel, qc, notification, navigate, t]);

  if (!enabled) return null;
  const count = data?.untreated ?? 0;
  const content = (
    <div style={{ width: 340 }} data-testid="alarm-bell-panel">
      {data && data.latest.length > 0 ? (
        <List
          size="small"
          dataSource={data.latest}
          renderItem={(a) => (
            <List.Item
              style={{ cursor: 'pointer' }}
              onClick={() => void navigate(alarmLink(a.id))}
              data-testid={`alarm-bell-item-${a.id}`}
            >
              <List.Item.Meta
                title={
                  <span>
                    <AlarmLevelTag level={a.level} data-testid={`alarm-bell-level-${a.id}`} />
                    {a.deviceName}
                  </span>
                }
                description={`${alarmText(a)} · ${parseTime(a.startedAt) ?? ''}`}
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms:bell.none')} />
      )}
      <Button type="link" block onClick={() => void navigate(ALARM_PAGE)} data-testid="alarm-bell-all">
        {t('alarms:bell.all')}
      </Button>
    </div>
  );
  return (
    <Popover content={content} title={t('alarms:bell.title')} trigger="click" placement="bottomRight">
      <span data-testid="alarm-bell-count" data-count={count} style={{ display: 'inline-flex' }}>
      <Badge count={count} overflowCount={99} size="small">
        <IconButton label={t('alarms:bell.label', { count })} data-testid="alarm-bell">
          <BellOutlined />
        </IconButton>
      </Badge>
      </span>
    </Popover>
  );
}
