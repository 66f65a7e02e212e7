import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildTestApp, TestApp } from './helpers.js';

/**
 * Walks every /api/v1 route (the route table, with each route's query and body schema from the
 * OpenAPI document, so a new route is covered without touching this file) and sends it hostile
 * input: each query parameter and body field in turn set to a value from the table below while
 * the others stay plausible, then whole bodies that are not what the route expects. Path
 * parameters (`/ingest/:kind`) get a plausible value and then the hostile ones. Nothing may
 * answer 5xx or leak a stack trace, and the server must still answer afterwards.
 *
 * Routes that authenticate their caller themselves are called with that caller's credentials, so
 * the hostile input reaches past the door: the device uplink and the firmware download as a real
 * device (HTTP Basic SN and secret; with a console token they would answer 60204 to everything), the broker hooks with the
 * broker secret. The broker hooks are fuzzed a second time on a console without
 * BROKER_AUTH_SECRET (the default), where they are off. Range routes get a one-hour range of the
 * fuzz device and its parameter, so hostile values reach the database, not a first refusal.
 *
 * Runs on one engine: PostgreSQL when TEST_DATABASE_URL is set (CI), else PGlite. Hostile values
 * stop at the schemas or reach the same PostgreSQL input functions either way (PGlite is
 * PostgreSQL), and the two runs cost CI about 100 s of its 20 minutes. The routes are dealt to
 * SHARDS test files (fuzz-1.test.ts …), each with its own server and database, so the workers
 * share the ~25,000 requests: one file took 186 s on PGlite in CI with 203 routes (2026-11-27).
 */
export const SHARDS = 3;

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  minItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

let unique = 0;
/** A value the schema probably accepts, so that one hostile field is what the route sees. */
function plausible(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 6) return 'fuzz';
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt?.length) return plausible(alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(s.maximum ?? 1, Math.max(s.minimum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array': {
      if (s.prefixItems) return s.prefixItems.map((x) => plausible(x, depth + 1));
      if (Array.isArray(s.items)) return s.items.map((x) => plausible(x, depth + 1));
      return s.minItems ? [plausible(s.items, depth + 1)] : [];
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = plausible(v, depth + 1);
      return out;
    }
    default: {
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'email') return `fuzz${++unique}@example.com`;
      if (s.pattern && /\\d|0-9/.test(s.pattern) && !/A-Z|a-z|\\p\{L\}/.test(s.pattern)) return '123';
      return `fuzz${++unique}`.padEnd(s.minLength ?? 0, 'z');
    }
  }
}

/** Values no body field should take down the server with. */
const FIELD_VALUES: unknown[] = [
  'a\u0000b',
  '',
  -1,
  0,
  1.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  1e308,
  '99999999999999999999',
  true,
  null,
  [],
  { nested: { deeper: [1, { x: 'y' }] } },
  "' OR 1=1; --",
  // Lone surrogates (PostgreSQL's jsonb refuses them): high, low, inside text, reversed pair.
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udc00\ud800',
  // Years PostgreSQL or JavaScript cannot carry through (year 0000 has no text form in PostgreSQL).
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
];
/** The same for query parameters (always text), with a few that only make sense there. */
const QUERY_VALUES: string[] = [
  'a\u0000b',
  '',
  '-1',
  '1.5',
  String(2 ** 31),
  String(2 ** 53),
  '1e308',
  '99999999999999999999',
  'NaN',
  '0x1F',
  '[]',
  '{"a":{"b":[1]}}',
  "' OR 1=1; --",
  '%_\\',
  '\ud800',
  'a\udc00b',
  '2026-13-45T99:99:99Z',
  '0000-01-01',
  '10000-01-01',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-05:00',
  '😀'.repeat(100),
  'B'.repeat(20_000),
];
const BIG = 'A'.repeat(1024 * 1024);
/** Percent-encodes a query value; a lone surrogate becomes bytes that are not UTF-8 at all. */
const encodeQuery = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80%FF`;
  }
};
const BROKER_AUTH_SECRET = 'fuzz-broker-secret-123';
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Whole bodies that are not what any route expects, with their content type. */
const HOSTILE_BODIES: { type: string; body: string | Buffer }[] = [
  { type: 'application/json', body: '' },
  { type: 'application/json', body: '{' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '[]' },
  { type: 'application/json', body: '"just a string"' },
  { type: 'application/json', body: '1e999' },
  { type: 'application/json', body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { type: 'application/json', body: deepJson(5000) },
  { type: 'application/json', body: JSON.stringify({ big: BIG }) },
  { type: 'application/json', body: `{"a":"${'\\u0000'.repeat(10)}"}` },
  // Lone surrogates as JSON escapes in a value and in a key, and as raw bytes that are not UTF-8.
  { type: 'application/json', body: '{"a":"\\ud800","b":["x\\udfffy"]}' },
  { type: 'application/json', body: '{"\\ud800":1,"n":{"\\udc00k":"v"}}' },
  { type: 'application/json', body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('"}')]) },
  { type: 'text/plain', body: 'hello' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  { type: 'multipart/form-data', body: '--x\r\n' },
  { type: 'multipart/form-data; boundary=zz', body: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nPK\u0003\u0004junk' },
  { type: 'multipart/form-data; boundary=zz', body: `${'--zz\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n'.repeat(50)}--zz--\r\n` },
  { type: 'multipart/form-data; boundary=zz', body: '--zz\r\nContent-Disposition: form-data; name="file"; filename="x\u0000.xlsx"\r\n\r\n\r\n--zz--\r\n' },
];

/**
 * The fuzz of the routes whose index in the route table is `shard` modulo SHARDS; shard 0 also
 * fuzzes the broker hooks of a console without a broker secret. `build` is test/helpers.ts's.
 */
export function fuzzShard(build: typeof buildTestApp, shard: number) {
  const elsewhere = process.env.TEST_DB !== 'postgres' && Boolean(process.env.TEST_DATABASE_URL);
  describe.skipIf(elsewhere)(`fuzzing every route with hostile input (share ${shard + 1} of ${SHARDS})`, () => {
    let t: TestApp;
    let doc: { paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>> };
    let logins = 0;
    const problems: string[] = [];
    let requests = 0;
    /** `Authorization` of a real device for the uplink (HTTP Basic: SN and secret). */
    let deviceBasic = '';
    /** The fuzz device: range routes read its history. */
    let deviceId = 0;
    /** A console with the default configuration: no BROKER_AUTH_SECRET, so the broker hooks are off. */
    let hooksOff: TestApp;

    /** A fresh super-administrator session from its own address (logout and lockouts stay local). */
    const session = async () => {
      const remoteAddress = `10.9.${Math.floor(++logins / 250)}.${logins % 250}`;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', remoteAddress, payload: { username: 'admin', password: 'admin-pass-1' } });
      return { token: res.json().data.token as string, remoteAddress };
    };

    beforeAll(async () => {
      // No per-session or per-device rate limit: the fuzzer sends fast, and a 42900 would hide the
      // deeper paths it means to reach.
      t = await build({ API_RATE_LIMIT: '0', DEVICE_RATE_LIMIT: '100000', BROKER_AUTH_SECRET });
      doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
      const admin = await session();
      const bearerOf = { authorization: `Bearer ${admin.token}` };
      const type = (await t.app.inject({ method: 'POST', url: '/api/v1/devicetype/addtype', headers: bearerOf, payload: { code: 'FUZZ', name: 'Fuzz type' } })).json();
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/devicetype/addsetparam',
        headers: bearerOf,
        payload: { id: type.data.id, params: [{ semaphoreId: 'v', name: 'V', dataType: 'number' }, { semaphoreId: 's', name: 'S', dataType: 'text' }] },
      });
      const device = (await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearerOf, payload: { name: 'Fuzz BMU', sn: 'FUZZ-1', typeId: type.data.id } })).json();
      expect(device.code).toBe(20000);
      deviceId = device.data.id;
      deviceBasic = `Basic ${Buffer.from(`FUZZ-1:${device.data.secret}`).toString('base64')}`;
      // Rows in the ranges the fuzz asks for (the last hour), so exports write something.
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/telemetry',
        headers: { authorization: deviceBasic },
        payload: { ts: new Date(Date.now() - 60_000).toISOString(), values: { v: 1, s: '=1+1' } },
      });
      expect(sent.json()).toMatchObject({ code: 20000, data: { accepted: 2 } });
      if (shard === 0) hooksOff = await build({ API_RATE_LIMIT: '0' });
    });
    afterAll(async () => {
      await t.close();
      await hooksOff?.close();
    });

    const send = async (
      who: { token: string; remoteAddress: string },
      method: string,
      url: string,
      opts: { query?: Record<string, unknown>; json?: unknown; raw?: { type: string; body: string | Buffer }; headers?: Record<string, string>; app?: TestApp },
    ) => {
      const qs = Object.entries(opts.query ?? {})
        .map(([k, v]) => `${encodeQuery(k)}=${encodeQuery(String(v))}`)
        .join('&');
      const headers: Record<string, string> = { authorization: `Bearer ${who.token}`, ...opts.headers };
      let payload: string | Buffer | undefined;
      if (opts.raw) {
        headers['content-type'] = opts.raw.type;
        payload = opts.raw.body;
      } else if (opts.json !== undefined && method !== 'GET') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(opts.json);
      }
      requests++;
      // Without the broker secret every call counts against 30 a minute per address: each its own
      // address, so the hostile input reaches the hooks instead of the rate limit.
      const remoteAddress = opts.app ? `10.200.${Math.floor(requests / 250) % 250}.${requests % 250}` : who.remoteAddress;
      const res = await (opts.app ?? t).app.inject({ method: method as 'GET', url: qs ? `${url}?${qs}` : url, headers, payload, remoteAddress });
      const label = `${opts.app ? '(hooks off) ' : ''}${method} ${url} ${JSON.stringify(opts.query ?? {}).slice(0, 80)} ${String(opts.raw?.body ?? JSON.stringify(opts.json) ?? '').slice(0, 80)}`;
      if (res.statusCode >= 500) problems.push(`${res.statusCode} ← ${label}: ${res.body.slice(0, 200)}`);
      if (/\bat .+:\d+:\d+\)?|node_modules|\.ts:\d+/.test(res.body)) problems.push(`stack trace ← ${label}`);
    };

    /**
     * Sends one route its hostile inputs: path parameters, query parameters and body fields one at
     * a time, then whole bodies of the wrong shape. `off`: the route of the console without a
     * broker secret.
     */
    const fuzzRoute = async (route: { url: string; method: string }, off = false) => {
      const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()] ?? {};
      const params = (op.parameters ?? []).filter((p) => p.in === 'query');
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const baseQuery: Record<string, unknown> = Object.fromEntries(params.map((p) => [p.name, plausible(p.schema)]));
      // A range of the fuzz device that the route answers: the last hour, its two parameters.
      if (typeof baseQuery.from === 'string' && typeof baseQuery.to === 'string') baseQuery.from = new Date(Date.now() - 3_600_000).toISOString();
      if (typeof baseQuery.from === 'string' && 'id' in baseQuery) baseQuery.id = deviceId;
      if ('semaphoreIds' in baseQuery) baseQuery.semaphoreIds = 'v,s';
      const isUplink = route.method === 'POST' && route.url === '/api/v1/ingest/:kind';
      // The devices' own routes (the uplink, the firmware download) take a device's credentials.
      const byDevice = route.url.startsWith('/api/v1/ingest/');
      // The uplink's body schema is any object: start from a telemetry message instead.
      const baseBody = isUplink
        ? { ts: new Date().toISOString(), values: { v: 1, s: 'text' } }
        : bodySchema
          ? (plausible(bodySchema) as Record<string, unknown>)
          : undefined;
      const pathOf = (values: Record<string, string>) =>
        route.url.replace(/:(\w+)/g, (_, name: string) => encodeQuery(values[name] ?? 'fuzz'));
      const basePath = Object.fromEntries(pathParams.map((p) => [p.name, String(plausible(p.schema))]));
      const url = pathOf(basePath);
      const who = await session();
      const app = off ? hooksOff : undefined;
      if (byDevice) {
        // The fuzz of /device/credential (a plausible body names the fuzz device) issued it new secrets.
        const fresh = await t.app.inject({ method: 'POST', url: '/api/v1/device/credential', headers: { authorization: `Bearer ${who.token}` }, payload: { id: deviceId }, remoteAddress: who.remoteAddress });
        deviceBasic = `Basic ${Buffer.from(`FUZZ-1:${fresh.json().data.secret}`).toString('base64')}`;
      }
      const headers: Record<string, string> | undefined = byDevice
        ? { authorization: deviceBasic }
        : route.url.startsWith('/api/v1/broker/')
          ? { 'x-broker-secret': BROKER_AUTH_SECRET }
          : undefined;
      if (route.url.includes('/:')) expect(pathParams.length, `${route.url}: path parameters in the OpenAPI document`).toBeGreaterThan(0);

      // Path parameters, one at a time.
      for (const p of pathParams) {
        for (const v of QUERY_VALUES) await send(who, route.method, pathOf({ ...basePath, [p.name]: v }), { query: baseQuery, json: baseBody, headers, app });
      }
      if (isUplink) {
        // The same messages without a device's credentials, or with a console token: 60204.
        const anon = await t.app.inject({ method: 'POST', url, payload: baseBody, remoteAddress: who.remoteAddress });
        expect(anon.json().code).toBe(60204);
        const withToken = await t.app.inject({ method: 'POST', url, payload: baseBody, headers: { authorization: `Bearer ${who.token}` }, remoteAddress: who.remoteAddress });
        expect(withToken.json().code).toBe(60204);
        const nul = await t.app.inject({
          method: 'POST',
          url,
          payload: baseBody,
          headers: { authorization: `Basic ${Buffer.from('FUZZ\u0000-1:x').toString('base64')}` },
          remoteAddress: who.remoteAddress,
        });
        expect(nul.json().code).toBe(60204);
        const good = await t.app.inject({ method: 'POST', url, payload: baseBody, headers: { authorization: deviceBasic }, remoteAddress: who.remoteAddress });
        expect(good.json()).toMatchObject({ code: 20000, data: { accepted: 2 } });
      }

      // One field at a time, the others plausible; then a lone surrogate in a parameter's name.
      for (const p of params) {
        for (const v of QUERY_VALUES) await send(who, route.method, url, { query: { ...baseQuery, [p.name]: v }, json: baseBody, headers, app });
      }
      await send(who, route.method, url, { query: { ...baseQuery, 'k\ud800': 'v' }, json: baseBody, headers, app });
      if (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody)) {
        const fields = Object.keys(baseBody);
        for (const [i, f] of fields.entries()) {
          for (const v of FIELD_VALUES) await send(who, route.method, url, { query: baseQuery, json: { ...baseBody, [f]: v }, headers, app });
          // A 1 MB string in the first field; an unknown extra field.
          if (i === 0) await send(who, route.method, url, { query: baseQuery, json: { ...baseBody, [f]: BIG }, headers, app });
        }
        await send(who, route.method, url, { query: baseQuery, json: { ...baseBody, 'extra\u0000': 1, __proto__: { polluted: true } }, headers, app });
      }
      // Whole bodies of the wrong shape (also sent to GET routes: a body they must ignore).
      for (const raw of HOSTILE_BODIES) {
        if (route.method === 'GET' && raw.type !== 'application/json') continue;
        await send(who, route.method, url, { query: baseQuery, raw, headers, app });
      }
    };

    it('no route answers 5xx or leaks a stack trace, and the server still answers', async () => {
      const started = Date.now();
      const mine = t.app.apiRoutes.filter((route, i) => i % SHARDS === shard && !route.url.endsWith('/ws')); // the live channel has its own suite
      expect(mine.length).toBeGreaterThan(20);
      for (const route of mine) await fuzzRoute(route);
      // The broker hooks while BROKER_AUTH_SECRET is unset, with and without a secret sent.
      for (const route of shard === 0 ? hooksOff.app.apiRoutes.filter((r) => r.url.startsWith('/api/v1/broker/')) : []) {
        await fuzzRoute(route, true);
        const who = await session();
        await send(who, route.method, route.url, { json: { username: 'x', password: 'y', clientid: 'x' }, app: hooksOff });
      }
      const config = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(config.json().code).toBe(20000);
      const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: `Bearer ${(await session()).token}` } });
      expect(info.json().code).toBe(20000);
      expect(problems).toEqual([]);
      expect(requests).toBeGreaterThan(2000);
      console.log(`fuzz ${shard + 1}/${SHARDS}: ${requests} requests over ${mine.length} routes in ${Date.now() - started} ms`);
      // Every route adds its share (the alarm routes ~1,500 requests).
    }, 240_000);
  });
}
