import { useEffect, useRef } from 'react';

/** Why a stream stopped: the player's own words for the log line under the message. */
export interface StreamFailure {
  kind: 'network' | 'media' | 'unsupported';
  detail: string;
}

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Media Source Extensions (or Safari's ManagedMediaSource): what hls.js feeds. */
function hasMediaSource(): boolean {
  return typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);
}

/**
 * An HLS live stream in a <video>. Where the browser has Media Source Extensions (desktop
 * browsers, Android, iPadOS, iOS 17.1+) hls.js plays it — loaded with this component, never with
 * the signed-in shell — so every browser reports failures the same way; elsewhere (older
 * iPhones) the browser's own HLS. `onFailure` once the stream cannot go on; `onPlaying` when
 * pictures move.
 */
export function HlsVideo({
  url,
  onFailure,
  onPlaying,
}: {
  url: string;
  onFailure: (f: StreamFailure) => void;
  onPlaying: () => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  // The latest callbacks, without restarting the stream when the parent renders again.
  const handlers = useRef({ onFailure, onPlaying });
  handlers.current = { onFailure, onPlaying };

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let stopped = false;
    let destroy = () => {};
    const teardown = () => {
      const d = destroy;
      destroy = () => {};
      d();
    };
    const fail = (f: StreamFailure) => {
      if (stopped) return;
      stopped = true;
      teardown();
      handlers.current.onFailure(f);
    };
    const playing = () => handlers.current.onPlaying();
    video.addEventListener('playing', playing);
    const start = () => void video.play().catch(() => undefined); // muted autoplay; controls otherwise

    if (!hasMediaSource() && video.canPlayType(HLS_TYPE)) {
      const error = () => fail({ kind: video.error?.code === 4 ? 'unsupported' : 'network', detail: video.error?.message || `MediaError ${video.error?.code ?? ''}` });
      video.addEventListener('error', error);
      video.src = url;
      start();
      destroy = () => {
        video.removeEventListener('error', error);
        video.removeAttribute('src');
        video.load();
      };
    } else {
      void import('hls.js')
        .then(({ default: Hls }) => {
          if (stopped) return;
          if (!Hls.isSupported()) return fail({ kind: 'unsupported', detail: 'Media Source Extensions with H.264' });
          // No worker: the Content-Security-Policy allows scripts from the console only, not blob: workers.
          const hls = new Hls({ enableWorker: false });
          destroy = () => hls.destroy();
          hls.on(Hls.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            const status = data.response?.code ? ` HTTP ${data.response.code}` : '';
            fail({ kind: data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'network' : 'media', detail: `${data.details}${status}` });
          });
          hls.on(Hls.Events.MANIFEST_PARSED, start);
          hls.loadSource(url);
          hls.attachMedia(video);
        })
        .catch((err: unknown) => fail({ kind: 'network', detail: err instanceof Error ? err.message : String(err) }));
    }
    return () => {
      stopped = true;
      video.removeEventListener('playing', playing);
      teardown();
    };
  }, [url]);

  return <video ref={ref} data-testid="video-stream" controls muted autoPlay playsInline style={{ width: '100%', height: '100%', background: '#000' }} />;
}
