import { useCallback, useEffect, useState } from 'react';
import { Button, Result, Space, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError, describeError } from '../../../lib/http';
import { parseTime } from '../../../lib/format';
import { useDeviceBasic, useVideoUrl } from '../details/api';
import { HlsVideo, type StreamFailure } from './HlsVideo';

/** An HLS playlist address (the platform's live address), as opposed to a player page. */
export function isHlsAddress(url: string): boolean {
  try {
    return /\.m3u8$/i.test(new URL(url, window.location.href).pathname);
  } catch {
    return false;
  }
}

/** Why nothing plays: the server gave no address, or the stream stopped (expired or not). */
interface Problem {
  kind: 'address' | 'expired' | 'failed' | 'unsupported';
  text: string;
}

/**
 * /video/play?id=<device>: the live video of a device's camera, opened in its own tab from the
 * device page. Asks the server for an address (POST /getVideoH5Url, the video provider); an HLS
 * address (EZVIZ) plays here, a player page (the simulated provider) is opened in its place. A
 * stream that stops says whether its address expired or why it failed, and "Try again" asks
 * for a fresh address.
 */
export default function VideoPlayPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const device = useDeviceBasic(valid ? id : undefined);
  const address = useVideoUrl();
  const [problem, setProblem] = useState<Problem>();
  const [playing, setPlaying] = useState(false);
  const { mutate } = address;

  const ask = useCallback(() => {
    setProblem(undefined);
    setPlaying(false);
    mutate(id, {
      onSuccess: (v) => {
        if (!isHlsAddress(v.url)) window.location.replace(v.url);
      },
      onError: (err) => setProblem({ kind: 'address', text: err instanceof ApiError ? describeError(err) : err.message }),
    });
  }, [id, mutate]);

  useEffect(() => {
    if (valid) ask();
  }, [valid, ask]);

  const answer = address.data;
  const onFailure = useCallback(
    (f: StreamFailure) => {
      const expired = answer !== undefined && Date.now() >= Date.parse(answer.expiresAt);
      setPlaying(false);
      setProblem({ kind: expired ? 'expired' : f.kind === 'unsupported' ? 'unsupported' : 'failed', text: f.detail });
    },
    [answer],
  );
  const onPlaying = useCallback(() => setPlaying(true), []);

  if (!valid) return <Result status="warning" title={t('devicedetail:player.noDevice')} data-testid="video-problem" />;
  const name = device.data?.name;
  const hls = !address.isPending && answer && isHlsAddress(answer.url) ? answer : undefined;
  return (
    <div style={{ position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column', background: '#000' }}>
      <Space style={{ padding: '8px 16px', background: '#141414', justifyContent: 'space-between' }} wrap>
        <Space>
          <Typography.Text strong style={{ color: '#fff' }} data-testid="video-device">
            {name ?? t('devicedetail:video')}
          </Typography.Text>
          {playing && (
            <Tag color="red" data-testid="video-live">
              {t('devicedetail:player.live')}
            </Tag>
          )}
        </Space>
        {hls && !problem && (
          <Typography.Text style={{ color: '#bbb' }} data-testid="video-valid-until">
            {t('devicedetail:player.validUntil', { time: parseTime(hls.expiresAt, '{h}:{i}:{s}') })}
          </Typography.Text>
        )}
      </Space>
      <div style={{ flex: 1, minHeight: 0, position: 'relative' }}>
        {problem ? (
          <Result
            status={problem.kind === 'expired' ? 'info' : 'warning'}
            data-testid="video-problem"
            data-kind={problem.kind}
            title={<span style={{ color: '#fff' }}>{t(`devicedetail:player.${problem.kind}`)}</span>}
            subTitle={<span style={{ color: '#bbb' }}>{problem.text}</span>}
            extra={
              <Button type="primary" icon={<ReloadOutlined />} onClick={ask} loading={address.isPending} data-testid="video-retry">
                {t('devicedetail:player.retry')}
              </Button>
            }
          />
        ) : hls ? (
          // A fresh address is a new stream: the key starts the player over.
          <HlsVideo key={hls.url} url={hls.url} onFailure={onFailure} onPlaying={onPlaying} />
        ) : (
          <Spin size="large" style={{ position: 'absolute', inset: 0, margin: 'auto', height: 'fit-content' }} tip={t('devicedetail:player.connecting')}>
            <span />
          </Spin>
        )}
      </div>
    </div>
  );
}
