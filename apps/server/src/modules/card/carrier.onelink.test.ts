import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CarrierError } from './carrier.js';
import { OneLinkCarrier } from './carrier.onelink.js';

/**
 * A local OneLink platform: answers the published API's paths with its envelope
 * `{status, message, result}`, issues tokens, expires them on demand and refuses what the real
 * platform refuses (unknown card, wrong password, whitelist full).
 */
class FakeOneLink {
  server = http.createServer((req, res) => this.answer(req, res));
  requests: { path: string; q: Record<string, string>; at: number }[] = [];
  tokens = new Set<string>();
  tokenCount = 0;
  whitelist: { whiteNumber: string; status: string }[] = [];
  base = '';

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v5`;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, 'http://x');
    const q = Object.fromEntries(url.searchParams);
    this.requests.push({ path: url.pathname, q, at: Date.now() });
    const send = (status: string, message: string, result: unknown[] = []) => {
      res.setHeader('content-type', 'application/json;charset=UTF-8');
      res.end(JSON.stringify({ status, message, result }));
    };
    if (url.pathname === '/v5/ec/get/token') {
      if (q.appid !== 'APP1' || q.password !== 'secret') return send('12002', '用户名或密码错误');
      const token = `tok-${++this.tokenCount}`;
      this.tokens.add(token);
      return send('0', '正确', [{ token, ttl: 3600 }]);
    }
    if (!q.token || !this.tokens.has(q.token)) return send('12021', 'token不存在或已过期');
    if (q.msisdn === '1440000000000') return send('12006', '物联卡号不存在');
    switch (url.pathname) {
      case '/v5/ec/query/sim-basic-info':
        return send('0', '正确', [{ msisdn: q.msisdn, imsi: '460040000000001', iccid: '89860400000000000001', activeDate: '20240105103000', openDate: '20231201000000' }]);
      case '/v5/ec/query/sim-voice-margin':
        return send('0', '正确', [{ accmMarginList: [{ offeringId: '390000020477', offeringName: '语音包', totalAmount: '200', useAmount: '35.5', remainAmount: '164.5' }] }]);
      case '/v5/ec/query/group-by-member':
        return send('0', '正确', [{ groupList: [{ groupId: 'G100', groupName: 'fleet' }] }]);
      case '/v5/ec/query/member-voice-whitelist':
        if (q.groupId !== 'G100') return send('13001', '群组不存在');
        return send('0', '正确', [{ totalCount: String(this.whitelist.length), memVoiceWhiteList: this.whitelist }]);
      case '/v5/ec/config/member-voice-whitelist':
        if (q.operType === '1') {
          if (this.whitelist.length >= 2) return send('13019', '白名单数量已达上限');
          this.whitelist.push({ whiteNumber: q.whiteNumber!, status: '1' });
        } else if (q.operType === '4') {
          this.whitelist = this.whitelist.filter((w) => w.whiteNumber !== q.whiteNumber);
        } else return send('10003', '参数错误');
        return send('0', '正确', []);
      default:
        res.statusCode = 404;
        return res.end('not found');
    }
  }
}

describe('OneLink carrier adapter against a local platform', () => {
  const fake = new FakeOneLink();
  let clock = Date.now();
  const adapter = (over: Partial<ConstructorParameters<typeof OneLinkCarrier>[0]> = {}) =>
    new OneLinkCarrier({ baseUrl: fake.base, appId: 'APP1', password: 'secret', ratePerSecond: 1000, whitelistMax: 2, now: () => clock, ...over });

  beforeAll(() => fake.start());
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));
  beforeEach(() => {
    fake.requests = [];
    fake.whitelist = [];
    clock = Date.now();
  });

  it('gets a token once, sends it with a transaction id (appid + YYYYMMDDhhmmss + 8 digits) and reads basic info', async () => {
    const a = adapter();
    const info = await a.basicInfo({ msisdn: '1440012345678', iccid: '89860400000000000001' });
    expect(info).toEqual({ msisdn: '1440012345678', imsi: '460040000000001', iccid: '89860400000000000001', activeDate: '20240105103000', openDate: '20231201000000' });
    await a.basicInfo({ msisdn: '1440012345678' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v5/ec/get/token', '/v5/ec/query/sim-basic-info', '/v5/ec/query/sim-basic-info']);
    const ids = fake.requests.map((r) => r.q.transid!);
    for (const id of ids) expect(id).toMatch(/^APP1\d{14}\d{8}$/);
    expect(new Set(ids).size).toBe(3);
    expect(ids.map((id) => Number(id.slice(-8)))).toEqual([1, 2, 3]);
    // MSISDN is preferred over the ICCID as the card's id.
    expect(fake.requests[1]!.q).toMatchObject({ msisdn: '1440012345678', token: 'tok-' + fake.tokenCount });
    expect(fake.requests[1]!.q.iccid).toBeUndefined();
  });

  it('reads the voice margin with numbers from the platform’s strings', async () => {
    expect(await adapter().voiceMargin({ iccid: '89860400000000000001' })).toEqual([
      { offeringId: '390000020477', offeringName: '语音包', totalAmount: 200, useAmount: 35.5, remainAmount: 164.5 },
    ]);
    expect(fake.requests[1]!.q).toMatchObject({ iccid: '89860400000000000001' });
  });

  it('queries and configures the member voice whitelist, looking up the group when the card has none', async () => {
    const a = adapter();
    expect(await a.voiceWhitelist({ msisdn: '1440012345678' })).toEqual({ totalCount: 0, numbers: [] });
    await a.configVoiceWhitelist({ msisdn: '1440012345678', groupId: 'G100' }, 'add', '13800138000');
    const add = fake.requests.find((r) => r.path === '/v5/ec/config/member-voice-whitelist')!;
    expect(add.q).toMatchObject({ groupId: 'G100', operType: '1', whiteNumber: '13800138000', msisdn: '1440012345678' });
    await a.configVoiceWhitelist({ msisdn: '1440012345678', groupId: 'G100' }, 'add', '13900139000');
    // The platform's limit comes back as its own code and message.
    await expect(a.configVoiceWhitelist({ msisdn: '1440012345678', groupId: 'G100' }, 'add', '13700137000')).rejects.toMatchObject({
      code: '13019',
      message: '白名单数量已达上限',
    });
    await a.configVoiceWhitelist({ msisdn: '1440012345678', groupId: 'G100' }, 'delete', '13800138000');
    expect(fake.requests.at(-1)!.q.operType).toBe('4');
    expect(await a.voiceWhitelist({ msisdn: '1440012345678', groupId: 'G100' })).toEqual({
      totalCount: 1,
      numbers: [{ whiteNumber: '13900139000', status: '1' }],
    });
  });

  it('surfaces the platform’s error codes as CarrierError', async () => {
    const err = await adapter().basicInfo({ msisdn: '1440000000000' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierError);
    expect(err).toMatchObject({ code: '12006', message: '物联卡号不存在' });
    await expect(adapter({ password: 'wrong' }).basicInfo({ msisdn: '1440012345678' })).rejects.toMatchObject({ code: '12002' });
  });

  it('renews an expired token once and repeats the call', async () => {
    const a = adapter();
    await a.basicInfo({ msisdn: '1440012345678' });
    fake.tokens.clear(); // the platform forgets every token
    fake.requests = [];
    await a.basicInfo({ msisdn: '1440012345678' });
    expect(fake.requests.map((r) => [r.path, r.q.token ?? ''])).toEqual([
      ['/v5/ec/query/sim-basic-info', `tok-${fake.tokenCount - 1}`],
      ['/v5/ec/get/token', ''],
      ['/v5/ec/query/sim-basic-info', `tok-${fake.tokenCount}`],
    ]);
  });

  it('asks for a new token when the hour is over, without waiting for a refusal', async () => {
    const a = adapter();
    await a.basicInfo({ msisdn: '1440012345678' });
    clock += 3_600_000;
    fake.requests = [];
    await a.basicInfo({ msisdn: '1440012345678' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v5/ec/get/token', '/v5/ec/query/sim-basic-info']);
  });

  it('spaces its requests to the rate limit and reports an unreachable platform', async () => {
    const a = adapter({ ratePerSecond: 20 });
    fake.requests = [];
    await Promise.all([1, 2, 3, 4].map(() => a.basicInfo({ msisdn: '1440012345678' })));
    const times = fake.requests.map((r) => r.at);
    // The 4 queries (and a token request unless one is still valid) at 20/s: n requests leave
    // (n − 1) × 50 ms apart; unspaced they would take a few ms. Arrival times are the fake's, so
    // one slot is allowed for a late first arrival on a loaded machine (163 ms for 5 was seen).
    expect(times.length).toBeGreaterThanOrEqual(4);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual((times.length - 2) * 50);
    await expect(adapter({ baseUrl: 'http://127.0.0.1:9/v5' }).basicInfo({ msisdn: '1' })).rejects.toMatchObject({ code: 'network' });
  });
});
