import WebSocket from 'ws';
import type { LiveServerMessage } from '@iot/contract';

/** A live client that records what the server sends and when it closes. */
export function connectLive(url: string) {
  const ws = new WebSocket(url);
  const received: LiveServerMessage[] = [];
  /** When each message of `received` arrived (ms). */
  const arrived: number[] = [];
  const waiters: (() => void)[] = [];
  let closeCode: number | undefined;
  ws.on('message', (raw) => {
    received.push(JSON.parse(String(raw)));
    arrived.push(Date.now());
    waiters.splice(0).forEach((w) => w());
  });
  ws.on('close', (code) => {
    closeCode = code;
    waiters.splice(0).forEach((w) => w());
  });
  const until = async (pred: () => boolean, ms = 3000) => {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error('timed out waiting for the live channel');
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  };
  return {
    ws,
    received,
    arrived,
    closed: () => closeCode,
    open: () => new Promise<void>((r) => ws.once('open', () => r())),
    send: (m: object) => ws.send(JSON.stringify(m)),
    until,
    /**
     * A WebSocket ping answered: the server has handled everything sent before it on this socket
     * (a close it decided on would have come first). Resolves on close too.
     */
    pinged: async () => {
      let pong = false;
      ws.once('pong', () => {
        pong = true;
        waiters.splice(0).forEach((w) => w());
      });
      ws.ping();
      await until(() => pong || closeCode !== undefined);
    },
  };
}
export type LiveTestClient = ReturnType<typeof connectLive>;
