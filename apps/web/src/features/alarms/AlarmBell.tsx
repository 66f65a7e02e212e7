import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

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
  /**
   * The keyboard in the panel (drawn at the page's end, where antd keeps it on screen): it gets
   * the focus when it opens; Escape, or Tab past its last control, closes it and goes back to
   * the bell.
   */
  const focusables = () => [...(panel.current?.querySelectorAll<HTMLElement>('[role="link"], button') ?? [])];
  const backToBell = () => {
    setOpen(false);
    bell.current?.focus();
  };
  const openAlarm = (id: number) => {
    setOpen(false);
    void navigate(alarmLink(id));
  };
  const onPanelKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = focusables();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape' || (e.key === 'Tab' && !e.shiftKey && at === all.length - 1) || (e.key === 'Tab' && e.shiftKey && at === 0)) {
      e.preventDefault();
      backToBell();
    }
  };
  const content = (
    <div ref={panel} style={{ width: 'min(340px, calc(100vw - 32px))' }} data-testid="alarm-bell-panel" onKeyDown={onPanelKey}>
      {data && data.latest.length > 0 ? (
        <List
          size="small"
          dataSource={data.latest}
          renderItem={(a) => (
            <List.Item>
              {/* A link for the keyboard too: Tab reaches it, Enter opens the alarm. */}
              <div
                role="link"
                tabIndex={0}
                className="alarm-bell-item"
                style={{ cursor: 'pointer', width: '100%' }}
                onClick={() => openAlarm(a.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') openAlarm(a.id);
                }}
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
              </div>
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
    <Popover
      content={content}
      title={t('alarms:bell.title')}
      trigger="click"
      // "bottom" lets antd shift the panel sideways to stay on a phone's screen.
      placement="bottom"
      open={open}
      onOpenChange={setOpen}
      afterOpenChange={(shown) => {
        if (shown) focusables()[0]?.focus();
      }}
    >
      <span data-testid="alarm-bell-count" data-count={count} style={{ display: 'inline-flex' }}>
        <Badge count={count} overflowCount={99} size="small">
          <IconButton ref={bell} label={t('alarms:bell.label', { count })} aria-expanded={open} data-testid="alarm-bell">
            <BellOutlined />
          </IconButton>
        </Badge>
      </span>
    </Popover>
  );
}
