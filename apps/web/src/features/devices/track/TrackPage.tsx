import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Card, DatePicker, Descriptions, Empty, Select, Slider, Space, Spin, Tag, Typography } from 'antd';
import { DownloadOutlined, PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LOCUS_MAX_RANGE_DAYS } from '@iot/contract/plain';
import type { LocusData } from '@iot/contract';
import { formatNumber, formatQuantity, parseTime } from '../../../lib/format';
import { useMapSettings } from '../../../lib/site';
import { usePageTitle } from '../../../lib/page-title';
import { useDevice } from '../api';
import { DeviceSelect } from '../pickers';
import { exportLocus, useLocus, useLocusRange } from './api';
import { advance, PLAYBACK_SPEEDS, positionAt, unwrapLngs } from './playback';

// Leaflet and the world outline load with the map only: asked for as the screen opens, so they
// arrive while the track is read rather than after it.
const loadMap = () => import('./TrackMap');
const TrackMap = lazy(loadMap);
const MAP_HEIGHT = 460;

/** "1 h 05 min", "3 min 20 s". */
function duration(seconds: number, t: TFunction): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return t('track:hm', { h, m: String(m).padStart(2, '0') });
  return t('track:ms', { m, s: String(s % 60).padStart(2, '0') });
}

/**
 * §1 tracks: a device and a time range (opening on the last day that has fixes), the path with
 * its start and end on a map, playback (play, pause, speed, a time slider), the point under the
 * cursor or at the playback time with its values, the totals and stops, CSV and GPX downloads.
 * Reached from the sidebar (Devices → Tracks), the device list and the details page (`?id=`).
 */
export default function TrackPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  // A range in the address (`from`, `to`: ISO times) opens there instead of the last day with fixes.
  const [from, to] = [dayjs(params.get('from') ?? ''), dayjs(params.get('to') ?? '')];
  const initial: [Dayjs, Dayjs] | null = from.isValid() && to.isValid() && from.isBefore(to) ? [from, to] : null;
  const device = useDevice(id);
  usePageTitle('/device/track', device.data ? `${t('track:title')} · ${device.data.name}` : undefined);
  const picker = (
    <DeviceSelect
      value={id ?? null}
      onChange={(v) => setParams(v ? { id: String(v) } : {})}
      allowClear={false}
      placeholder={t('track:chooseDevice')}
      aria-label={t('track:device')}
      style={{ width: 280 }}
      data-testid="track-device"
    />
  );
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="track-page">
      {id ? (
        <Track key={`${id}/${params.get('from') ?? ''}/${params.get('to') ?? ''}`} deviceId={id} picker={picker} initial={initial} />
      ) : (
        <Card>
          {picker}
          <Empty description={t('track:noDevice')} data-testid="track-no-device" />
        </Card>
      )}
    </Space>
  );
}

function Track({ deviceId, picker, initial }: { deviceId: number; picker: ReactNode; initial: [Dayjs, Dayjs] | null }) {
  const { t } = useTranslation();
  // Where the track opens: the last day that has fixes (never an empty map when there are some).
  const opening = useLocusRange(initial ? undefined : deviceId);
  useEffect(() => {
    void loadMap();
  }, []);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(initial);
  if (range === null && opening.data) setRange([dayjs(opening.data.from), dayjs(opening.data.to)]);
  const locus = useLocus(range ? { id: deviceId, from: range[0].toISOString(), to: range[1].toISOString() } : undefined);

  const download = (format: 'csv' | 'gpx') =>
    range && void exportLocus({ id: deviceId, from: range[0].toISOString(), to: range[1].toISOString(), format }).catch(() => undefined);

  return (
    <>
      <Card>
        <Space wrap>
          {picker}
          <DatePicker.RangePicker
            showTime
            value={range}
            onChange={(v) => v && v[0] && v[1] && setRange([v[0], v[1]])}
            disabledDate={(d, info) => {
              const from = info.from;
              return d.isAfter(dayjs().add(1, 'day')) || (!!from && Math.abs(d.diff(from, 'day', true)) > LOCUS_MAX_RANGE_DAYS);
            }}
            presets={[
              { label: t('track:presets.day'), value: [dayjs().subtract(1, 'day'), dayjs()] },
              { label: t('track:presets.week'), value: [dayjs().subtract(7, 'day'), dayjs()] },
              { label: t('track:presets.month'), value: [dayjs().subtract(30, 'day'), dayjs()] },
            ]}
            aria-label={t('track:range')}
            data-testid="track-range"
          />
          <Button icon={<DownloadOutlined />} disabled={!locus.data?.read} onClick={() => download('csv')} data-testid="track-export-csv">
            {t('track:exportCsv')}
          </Button>
          <Button icon={<DownloadOutlined />} disabled={!locus.data?.read} onClick={() => download('gpx')} data-testid="track-export-gpx">
            {t('track:exportGpx')}
          </Button>
        </Space>
      </Card>
      {!locus.data && (locus.isError || opening.isError) ? (
        // The refusal itself was shown as a message (lib/api.ts); no endless spinner under it.
        <Card>
          <Empty description={t('errors:emptyData')} data-testid="track-failed" />
        </Card>
      ) : !locus.data ? (
        <Spin style={{ display: 'block', margin: 48 }} />
      ) : locus.data.read === 0 ? (
        <Card>
          <Empty description={t('track:empty')} data-testid="track-empty" />
        </Card>
      ) : (
        <Playback key={`${locus.data.from}/${locus.data.to}`} data={locus.data} loading={locus.isFetching} />
      )}
    </>
  );
}

function Playback({ data, loading }: { data: LocusData; loading: boolean }) {
  const { t } = useTranslation();
  const settings = useMapSettings();
  const { points } = data;
  const first = points.t[0]!;
  const last = points.t.at(-1)!;
  const span = Math.max(1, last - first);
  const lngs = useMemo(() => unwrapLngs(points.lng), [points.lng]);
  const [time, setTime] = useState(first);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(PLAYBACK_SPEEDS[2]);
  const [hovered, setHovered] = useState<number | null>(null);
  const position = useMemo(() => positionAt(points, lngs, time), [points, lngs, time]);

  // Playback: track time advances with wall time (1× plays the range in a minute). The clock
  // reads the newest speed and time through a ref; scrubbing moves the time it continues from.
  const clock = useRef({ speed, span, last, time });
  useEffect(() => {
    clock.current = { speed, span, last, time };
  });
  useEffect(() => {
    if (!playing) return undefined;
    let frame = 0;
    let before = performance.now();
    const step = (now: number) => {
      const c = clock.current;
      const next = Math.min(c.last, c.time + advance(c.span, c.speed, now - before));
      before = now;
      c.time = next;
      setTime(next);
      if (next >= c.last) setPlaying(false);
      else frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  const play = () => {
    if (time >= last) {
      clock.current.time = first;
      setTime(first);
    }
    setPlaying(true);
  };
  const shown = hovered ?? position?.index ?? 0;
  const value = (v: number | null, digits: number, unit = '') => (v === null ? t('common:empty') : `${formatNumber(v, digits)}${unit}`);
  const km = (m: number) => formatQuantity(m / 1000, 'km', 2);
  const kmh = (v: number | null) => (v === null ? t('common:empty') : formatQuantity(v, 'km/h', 1));
  const { totals } = data;

  return (
    <>
      <Card
        title={t('track:map')}
        extra={
          <Space size={4} wrap>
            <Tag color="success">{t('track:start')}: {parseTime(first)}</Tag>
            <Tag color="error">{t('track:end')}: {parseTime(last)}</Tag>
            {loading && <Spin size="small" />}
          </Space>
        }
      >
        <div style={{ height: MAP_HEIGHT }}>
          {settings ? (
            <Suspense fallback={<Spin />}>
              <TrackMap
                points={points}
                lngs={lngs}
                stops={data.stops}
                position={position}
                settings={settings}
                height={MAP_HEIGHT}
                label={t('track:mapLabel')}
                onHover={setHovered}
              />
            </Suspense>
          ) : (
            <Spin />
          )}
        </div>
        <Space wrap align="center" style={{ width: '100%', marginTop: 12 }}>
          {playing ? (
            <Button icon={<PauseOutlined />} onClick={() => setPlaying(false)} data-testid="track-pause">
              {t('track:pause')}
            </Button>
          ) : (
            <Button type="primary" icon={<CaretRightOutlined />} onClick={play} data-testid="track-play">
              {t('track:play')}
            </Button>
          )}
          <Select
            value={speed}
            onChange={setSpeed}
            options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
            aria-label={t('track:speed')}
            style={{ width: 90 }}
            data-testid="track-speed"
          />
          <Typography.Text data-testid="track-time">{parseTime(time)}</Typography.Text>
        </Space>
        <Slider
          min={first}
          max={Math.max(last, first + 1)}
          value={time}
          step={Math.max(1000, Math.round(span / 1000))}
          onChange={(v) => {
            setPlaying(false);
            setTime(v);
          }}
          tooltip={{ formatter: (v) => (v === undefined ? '' : parseTime(v)) }}
          ariaLabelForHandle={t('track:scrub')}
          ariaValueTextFormatterForHandle={(v) => (v === undefined ? '' : (parseTime(v) ?? ''))}
          data-testid="track-slider"
        />
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 2, lg: 3 }}
          title={<span data-testid="track-point-kind">{t(hovered === null ? 'track:point.playback' : 'track:point.hovered')}</span>}
          data-testid="track-point"
          items={[
            { key: 'time', label: t('track:point.time'), children: parseTime(points.t[shown]!) },
            { key: 'speed', label: t('track:point.speed'), children: kmh(points.speed[shown] ?? null) },
            { key: 'direction', label: t('track:point.direction'), children: value(points.direction[shown] ?? null, 0, '°') },
            { key: 'pdop', label: t('track:point.pdop'), children: value(points.pdop[shown] ?? null, 1) },
            { key: 'satellites', label: t('track:point.satellites'), children: value(points.satellites[shown] ?? null, 0) },
            {
              key: 'distance',
              label: t('track:point.distance'),
              children: km(hovered === null && position ? position.distance : points.distance[shown]!),
            },
          ]}
        />
      </Card>
      <Card title={t('track:totals.title')}>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 2, lg: 3 }}
          data-testid="track-totals"
          items={[
            { key: 'distance', label: t('track:totals.distance'), children: <span data-testid="track-distance">{km(totals.distanceM)}</span> },
            { key: 'duration', label: t('track:totals.duration'), children: duration(totals.durationS, t) },
            { key: 'max', label: t('track:totals.maxSpeed'), children: kmh(totals.maxSpeedKmh) },
            { key: 'avg', label: t('track:totals.avgSpeed'), children: kmh(totals.avgSpeedKmh) },
            {
              key: 'stops',
              label: t('track:totals.stops'),
              children: totals.stops === 0 ? '0' : t('track:totals.stopsValue', { count: totals.stops, time: duration(totals.stoppedS, t) }),
            },
            {
              key: 'points',
              label: t('track:totals.points'),
              children: (
                <span data-testid="track-points">
                  {data.kept < data.read
                    ? t('track:totals.simplified', { kept: data.kept, read: data.read, tolerance: formatNumber(data.toleranceM, 1) })
                    : t('track:totals.all', { read: data.read })}
                </span>
              ),
            },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('track:stopRule')}
        </Typography.Paragraph>
      </Card>
    </>
  );
}
