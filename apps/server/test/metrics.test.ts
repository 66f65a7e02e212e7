import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, LiveType } from '@iot/contract';
import { ConfigError, loadConfig } from '../src/config.js';
import { connectLive } from './live-client.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

const TOKEN = 'metrics-test-token-0123456789';

/** The sample `name{labels}` of an exposition text (labels in the order prom-client writes them). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const inner = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const head = inner ? `${name}{${inner}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(head));
  return line === undefined ? undefined : Number(line.slice(head.length));
}

/** Prometheus metrics at /metrics (issue #37): off without METRICS_TOKEN, a bearer token, bounded labels. */
describe('metrics', () => {
  it('is off without METRICS_TOKEN: /metrics is unknown', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('iot_');
    } finally {
      await t.close();
    }
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters at start', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short' })).toThrow(/METRICS_TOKEN: at least 16 characters/);
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    let token: string;
    let typeId: number;

    const ok = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
      expect(r.code, JSON.stringify(r)).toBe(20000);
      return r.data;
    };
    const addDevice = async (sn: string) => {
      const d = await ok('POST', '/device/add', { name: `Rack ${sn}`, sn, typeId });
      return { id: d.id as number, sn, secret: d.secret as string };
    };
    const send = (d: { sn: string; secret: string }, kind: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/ingest/${kind}`,
        headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
        payload,
      });
    const scrape = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
      expect(res.statusCode).toBe(200);
      return res.body;
    };

    beforeAll(async () => {
      t = await buildTestApp({ METRICS_TOKEN: TOKEN }, { ingest: { seenWriteMs: 0, writer: { maxRows: 500, flushMs: 5, maxQueued: 5000 } } });
      token = await t.login();
      typeId = (await ok('POST', '/devicetype/addtype', { code: 'MET', name: '指标', nameEn: 'Metrics' })).id;
      await ok('POST', '/devicetype/addsetparam', {
        id: typeId,
        params: [{ semaphoreId: 'V', name: '电压', nameEn: 'Voltage', dataType: 'number', sort: 1 }],
      });
      await ok('POST', '/devicetype/addsetalarm', {
        id: typeId,
        rules: [{ semaphoreId: 'V', comparison: 'lt', threshold: 10, level: 2, message: '欠压', messageEn: 'Under-voltage' }],
      });
    });
    afterAll(() => t.close());

    it('answers 401 without the token, with a wrong one or with other credentials', async () => {
      const cases = [undefined, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN}x`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN];
      for (const authorization of cases) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(res.json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
        expect(res.body).not.toContain('iot_');
      }
      // A session token of the console is not the metrics token.
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(token) })).statusCode).toBe(401);
    });

    it('with the token, answers every metric in the Prometheus text format', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer  ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      for (const name of [
        'iot_ingest_messages_accepted_total',
        'iot_ingest_messages_refused_total',
        'iot_ingest_queue_rows',
        'iot_ingest_waiting_messages',
        'iot_ingest_batch_seconds',
        'iot_live_sockets',
        'iot_leader',
        'iot_alarms_active',
        'iot_alarms_untreated',
        'iot_http_request_seconds',
        // prom-client's process metrics
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        expect(res.body).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
        expect(res.body).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
      }
      expect(sample(res.body, 'iot_ingest_queue_rows')).toBe(0);
      // A lone instance leads (decision 0038).
      expect(sample(res.body, 'iot_leader')).toBe(1);
    });

    it('counts messages accepted and refused over HTTP, and times their batches', async () => {
      const d = await addDevice('MET-1');
      const before = await scrape();
      const accepted = sample(before, 'iot_ingest_messages_accepted_total', { transport: 'http' }) ?? 0;
      const batches = sample(before, 'iot_ingest_batch_seconds_count', { outcome: 'committed' }) ?? 0;

      expect((await send(d, 'telemetry', { values: { V: 12 } })).json().data.accepted).toBe(1);
      expect((await send(d, 'telemetry', { values: { V: 'not a number' } })).json().data).toMatchObject({ accepted: 0, rejected: [{ reason: 'wrongType' }] });

      const after = await scrape();
      expect(sample(after, 'iot_ingest_messages_accepted_total', { transport: 'http' })).toBe(accepted + 1);
      expect(sample(after, 'iot_ingest_messages_refused_total', { transport: 'http', reason: 'wrongType' })).toBe(1);
      expect(sample(after, 'iot_ingest_batch_seconds_count', { outcome: 'committed' })).toBeGreaterThan(batches);
      // The device's SN is no label value.
      expect(after).not.toContain('MET-1');
    });

    it('times API calls by route pattern, method and status class, never by URL', async () => {
      await ok('GET', '/user/preferences/table:metrics-probe');
      // A device route by its pattern (this test's own request: tests run in random order).
      const stranger = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: { authorization: `Basic ${Buffer.from('NOBODY:x').toString('base64')}` }, payload: { values: {} } });
      const ingestClass = `${String(stranger.statusCode)[0]}xx`;
      const notFound = await t.app.inject({ method: 'GET', url: '/api/v1/no/such/route?x=1', headers: bearer(token) });
      expect(notFound.statusCode).toBe(404);
      const text = await scrape();
      expect(sample(text, 'iot_http_request_seconds_count', { method: 'GET', route: '/api/v1/user/preferences/:key', status: '2xx' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'iot_http_request_seconds_count', { method: 'POST', route: '/api/v1/ingest/:kind', status: ingestClass })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'iot_http_request_seconds_count', { method: 'GET', route: 'unmatched', status: '4xx' })).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain('metrics-probe');
      expect(text).not.toContain('/no/such/route');
      expect(text).toMatch(/^iot_http_request_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v1\/user\/preferences\/:key",status="2xx"\} \d+$/m);
    });

    it('follows an alarm raised and ended in the active alarms gauge', async () => {
      const d = await addDevice('MET-ALM');
      const active = async () => sample(await scrape(), 'iot_alarms_active', { level: '2' });
      const untreated = async () => sample(await scrape(), 'iot_alarms_untreated', { level: '2' });
      const before = (await active())!;
      const untreatedBefore = (await untreated())!;
      expect(sample(await scrape(), 'iot_alarms_active', { level: '4' })).toBe(0);

      await send(d, 'telemetry', { values: { V: 5 } });
      expect(await active()).toBe(before + 1);
      expect(await untreated()).toBe(untreatedBefore + 1);

      await send(d, 'telemetry', { values: { V: 12 } });
      expect(await active()).toBe(before);
      // Ended, it is still untreated until someone processes it.
      expect(await untreated()).toBe(untreatedBefore + 1);
    });

    it('counts open live-channel sockets', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const c = connectLive(`ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/ws`);
      await c.open();
      c.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
      await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
      expect(sample(await scrape(), 'iot_live_sockets')).toBe(1);
      c.ws.close();
      await expect.poll(async () => sample(await scrape(), 'iot_live_sockets')).toBe(0);
      // The socket's lifetime is no request latency.
      expect(await scrape()).not.toContain('route="/api/v1/ws"');
    });
  });
});
