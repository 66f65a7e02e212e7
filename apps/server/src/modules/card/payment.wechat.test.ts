import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationRefused, PaymentProviderError } from './payment.js';
import { WechatPayments } from './payment.wechat.js';

/**
 * The WeChat Pay v3 provider against a local server that answers like the published API: the
 * Native order call is accepted only with a WECHATPAY2-SHA256-RSA2048 signature that verifies
 * with the merchant's public key, and notifications are built the way the platform builds them
 * (resource encrypted AEAD_AES_256_GCM with the APIv3 key, body signed with the platform key).
 */
const merchant = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();
const API_V3_KEY = 'an-api-v3-key-of-32-bytes-000000';

const calls: { authorization: string; body: Record<string, unknown>; verified: boolean }[] = [];
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const auth = String(req.headers.authorization ?? '');
    const field = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(auth)?.[1] ?? '';
    const verified =
      auth.startsWith('WECHATPAY2-SHA256-RSA2048 ') &&
      crypto
        .createVerify('RSA-SHA256')
        .update(`${req.method}\n${req.url}\n${field('timestamp')}\n${field('nonce_str')}\n${raw}\n`)
        .verify(merchant.publicKey, field('signature'), 'base64');
    calls.push({ authorization: auth, body: JSON.parse(raw || '{}'), verified });
    res.setHeader('content-type', 'application/json');
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/[^/]+\/close$/.test(req.url ?? '');
    if (req.url !== '/v3/pay/transactions/native' && !close) return res.writeHead(404).end(JSON.stringify({ code: 'NOT_FOUND', message: 'no such API' }));
    if (!verified) return res.writeHead(401).end(JSON.stringify({ code: 'SIGN_ERROR', message: '签名错误' }));
    // Close order: 204 No Content.
    if (close) return res.writeHead(204).end();
    res.writeHead(200).end(JSON.stringify({ code_url: `weixin://wxpay/bizpayurl?pr=${calls.length}` }));
  });
});
let base = '';

const provider = (over: Partial<ConstructorParameters<typeof WechatPayments>[0]> = {}) =>
  new WechatPayments({
    baseUrl: base,
    appId: 'wx-app',
    mchId: '1900000001',
    serialNo: 'SERIAL-1',
    privateKey: pem(merchant.privateKey, 'pkcs8'),
    platformKeys: [{ pem: pem(platform.publicKey, 'spki') }],
    apiV3Key: API_V3_KEY,
    notifyUrl: 'https://console.example/api/v1/wechat/notify',
    ...over,
  });

/** A notification as the platform sends it; `tamper` changes the body after signing. */
function notification(
  transaction: Record<string, unknown>,
  opts: {
    key?: string;
    signer?: crypto.KeyObject;
    serial?: string;
    at?: number;
    /** The Wechatpay-Timestamp header as sent (signed), instead of `at` in seconds. */
    timestamp?: string;
    /** The encrypted text instead of the transaction's JSON. */
    plaintext?: string;
    tamper?: (body: string) => string;
    rewrite?: (body: string) => string;
  } = {},
) {
  const nonce = crypto.randomBytes(6).toString('hex');
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(opts.key ?? API_V3_KEY), Buffer.from(nonce));
  cipher.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([cipher.update(opts.plaintext ?? JSON.stringify(transaction)), cipher.final(), cipher.getAuthTag()]).toString('base64');
  const built = JSON.stringify({
    id: crypto.randomUUID(),
    event_type: 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, nonce, associated_data: 'transaction', original_type: 'transaction' },
  });
  // `rewrite` changes the body before it is signed (a body the platform really signed).
  const body = opts.rewrite ? opts.rewrite(built) : built;
  const timestamp = opts.timestamp ?? String(Math.floor((opts.at ?? Date.now()) / 1000));
  const headerNonce = crypto.randomBytes(8).toString('hex');
  const signature = crypto
    .createSign('RSA-SHA256')
    .update(`${timestamp}\n${headerNonce}\n${body}\n`)
    .sign(opts.signer ?? platform.privateKey, 'base64');
  return {
    headers: { 'wechatpay-timestamp': timestamp, 'wechatpay-nonce': headerNonce, 'wechatpay-signature': signature, 'wechatpay-serial': opts.serial ?? 'PLATFORM-1' },
    body: opts.tamper ? opts.tamper(body) : body,
  };
}

/** How the provider takes a notification: accepted, refused with its outcome, or failed otherwise. */
const refused = (n: { headers: Record<string, string>; body: string }, p = provider()) => {
  try {
    p.readNotification(n.headers, n.body);
  } catch (err) {
    return err instanceof NotificationRefused ? err.outcome : `other: ${(err as Error).message}`;
  }
  return 'accepted';
};

const paid = { out_trade_no: 'CO20261124000001', transaction_id: '4200001234', trade_state: 'SUCCESS', success_time: '2026-11-24T14:00:00+08:00', amount: { total: 3600, payer_total: 3600, currency: 'CNY' } };

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('WeChat Pay v3 (Native) provider', () => {
  it('creates a Native payment with a request the platform can verify, and answers its code_url', async () => {
    const payBefore = new Date('2026-11-24T06:30:00.000Z');
    const res = await provider().createNative({ orderNo: 'CO20261124000001', amountCents: 3600, description: 'Renewal 3 months', payBefore });
    expect(res.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const call = calls.at(-1)!;
    expect(call.verified).toBe(true);
    expect(call.authorization).toContain('mchid="1900000001"');
    expect(call.authorization).toContain('serial_no="SERIAL-1"');
    expect(call.body).toMatchObject({
      appid: 'wx-app',
      mchid: '1900000001',
      out_trade_no: 'CO20261124000001',
      notify_url: 'https://console.example/api/v1/wechat/notify',
      amount: { total: 3600, currency: 'CNY' },
      time_expire: '2026-11-24T06:30:00+00:00',
    });
  });

  it('reports the platform refusal when the request is signed with another key', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const wrong = provider({ privateKey: pem(other.privateKey, 'pkcs8') });
    await expect(wrong.createNative({ orderNo: 'X1', amountCents: 100, description: 'x', payBefore: new Date(Date.now() + 60_000) })).rejects.toThrow(
      PaymentProviderError,
    );
    await expect(wrong.createNative({ orderNo: 'X1', amountCents: 100, description: 'x', payBefore: new Date(Date.now() + 60_000) })).rejects.toThrow(/SIGN_ERROR/);
  });

  it('reports an unreachable platform as a provider error', async () => {
    await expect(
      provider({ baseUrl: 'http://127.0.0.1:9' }).createNative({ orderNo: 'X2', amountCents: 100, description: 'x', payBefore: new Date() }),
    ).rejects.toThrow(PaymentProviderError);
  });

  it('reads a signed, encrypted notification', () => {
    const n = notification(paid);
    expect(provider().readNotification(n.headers, n.body)).toMatchObject({
      orderNo: 'CO20261124000001',
      transactionId: '4200001234',
      amountCents: 3600,
      success: true,
      paidAt: new Date('2026-11-24T06:00:00.000Z'),
    });
  });

  it('refuses a forged, altered, stale or undecryptable notification', () => {
    const forger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(refused(notification(paid, { signer: forger.privateKey }))).toBe('badSignature');
    expect(refused(notification(paid, { tamper: (b) => b.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS ') }))).toBe('badSignature');
    expect(refused(notification(paid, { at: Date.now() - 10 * 60_000 }))).toBe('badSignature');
    expect(refused(notification(paid, { key: 'another-api-v3-key-of-32-bytes-0' }))).toBe('badSignature');
    const n = notification(paid);
    expect(refused({ headers: { ...n.headers, 'wechatpay-signature': '' }, body: n.body })).toBe('badSignature');
  });

  it('refuses a signed notification that is not a payment of this merchant in CNY, or has no readable resource, without failing', () => {
    expect(refused(notification({ ...paid, mchid: '1900000001', appid: 'wx-app' }))).toBe('accepted');
    expect(refused(notification({ ...paid, mchid: '1900000099' }))).toBe('badSignature');
    expect(refused(notification({ ...paid, appid: 'wx-other' }))).toBe('badSignature');
    expect(refused(notification({ ...paid, amount: { total: 3600, currency: 'USD' } }))).toBe('badSignature');
    expect(refused(notification({ ...paid, success_time: 'yesterday' }))).toBe('badSignature');
    const noResource = (b: string) => JSON.stringify({ ...JSON.parse(b), resource: { algorithm: 'AEAD_AES_256_GCM' } });
    expect(refused(notification(paid, { rewrite: noResource }))).toBe('badSignature');
    const short = (b: string) => JSON.stringify({ ...JSON.parse(b), resource: { ...JSON.parse(b).resource, ciphertext: 'AAAA' } });
    expect(refused(notification(paid, { rewrite: short }))).toBe('badSignature');
  });

  it('refuses a validly signed notification whose resource is malformed, never failing another way', () => {
    const resource = (change: Record<string, unknown>) => (b: string) => JSON.stringify({ ...JSON.parse(b), resource: { ...JSON.parse(b).resource, ...change } });
    const malformed: ((b: string) => string)[] = [
      // An empty nonce is an empty GCM IV, which the cipher throws on.
      resource({ nonce: '' }),
      resource({ nonce: null }),
      resource({ nonce: 12 }),
      resource({ ciphertext: null }),
      resource({ ciphertext: '' }),
      resource({ ciphertext: ['AAAA'] }),
      resource({ associated_data: 7 }),
      (b) => JSON.stringify({ ...JSON.parse(b), resource: null }),
      (b) => JSON.stringify({ ...JSON.parse(b), resource: 'encrypted' }),
      () => 'null',
      () => '[]',
      () => '"a string"',
      () => '42',
      () => '{',
    ];
    for (const rewrite of malformed) expect(refused(notification(paid, { rewrite })), rewrite(notification(paid).body).slice(0, 80)).toBe('badSignature');
    // The resource decrypts, but to no transaction.
    for (const plaintext of ['null', '[]', '"x"', '42', 'not json', '{}', JSON.stringify({ ...paid, out_trade_no: null }), JSON.stringify({ ...paid, amount: null })]) {
      expect(refused(notification(paid, { plaintext })), plaintext).toBe('badSignature');
    }
  });

  it('types the fields strictly: a timestamp that is no number of seconds, or an amount in text, is refused', () => {
    const seconds = String(Math.floor(Date.now() / 1000));
    for (const timestamp of ['abc', '', ' ', `${seconds}.0`, `+${seconds}`, `${seconds}abc`, '1e9', '-1', 'NaN', 'Infinity']) {
      expect(refused(notification(paid, { timestamp })), JSON.stringify(timestamp)).toBe('badSignature');
    }
    expect(refused(notification(paid, { timestamp: seconds }))).toBe('accepted');
    const amount = (total: unknown) => ({ ...paid, amount: { ...paid.amount, total } });
    for (const total of ['3600', '3600.0', 36.5, -1, null, true, 2 ** 31, { value: 3600 }]) {
      expect(refused(notification(amount(total))), JSON.stringify(total)).toBe('badSignature');
    }
    for (const wrong of [{ out_trade_no: 1 }, { transaction_id: 4200001234 }, { trade_state: true }, { success_time: 1732456800 }, { mchid: 1900000001 }, { amount: { total: 3600, currency: 1 } }]) {
      expect(refused(notification({ ...paid, ...wrong })), JSON.stringify(wrong)).toBe('badSignature');
    }
  });

  it('closes a payment with a request the platform can verify (before an order is cancelled or changed)', async () => {
    await provider().close('CO20261124000001');
    const call = calls.at(-1)!;
    expect(call.verified).toBe(true);
    expect(call.body).toEqual({ mchid: '1900000001' });
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expect(provider({ privateKey: pem(other.privateKey, 'pkcs8') }).close('CO20261124000001')).rejects.toThrow(/SIGN_ERROR/);
    await expect(provider({ baseUrl: 'http://127.0.0.1:9' }).close('CO20261124000001')).rejects.toThrow(PaymentProviderError);
  });

  it('verifies with the key the notification names (Wechatpay-Serial): old and new keys during a rotation, an unknown serial refused', () => {
    const next = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rotating = provider({
      platformKeys: [
        { serial: 'PUB_KEY_ID_OLD', pem: pem(platform.publicKey, 'spki') },
        { serial: 'PUB_KEY_ID_NEW', pem: pem(next.publicKey, 'spki') },
      ],
    });
    expect(refused(notification(paid, { serial: 'PUB_KEY_ID_OLD' }), rotating)).toBe('accepted');
    expect(refused(notification(paid, { serial: 'pub_key_id_new', signer: next.privateKey }), rotating)).toBe('accepted');
    // Signed with the old key but naming the new one: the named key decides, and it does not verify.
    expect(refused(notification(paid, { serial: 'PUB_KEY_ID_NEW' }), rotating)).toBe('badSignature');
    // A serial we do not hold (a rotation not configured yet) is refused; the platform retries.
    expect(refused(notification(paid, { serial: 'PUB_KEY_ID_OTHER' }), rotating)).toBe('badSignature');
    expect(() => rotating.readNotification(notification(paid, { serial: 'PUB_KEY_ID_OTHER' }).headers, '{}')).toThrow(/unknown platform key serial PUB_KEY_ID_OTHER/);
  });
});
