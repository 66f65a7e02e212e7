import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AliyunNotices, aliyunPermanent, percentEncode, rpcSignature, stringToSign } from './notice.aliyun.js';
import { NoticeError, alarmPhones, dialable, maskPhone } from './notice.provider.js';

/**
 * A local Alibaba Cloud RPC endpoint: checks each request's signature as the platform does (the
 * same secret, the parameters as received) and answers SendSms / SingleCallByTts, or the error
 * code it is told to.
 */
class FakeAliyun {
  server = http.createServer((req, res) => this.answer(req, res));
  requests: { params: Record<string, string>; signed: boolean }[] = [];
  failWith: { Code: string; Message: string } | undefined;
  url = '';

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      const { Signature, ...rest } = params;
      const signed = Signature === rpcSignature('key-secret', req.method!, rest);
      this.requests.push({ params, signed });
      res.setHeader('content-type', 'application/json');
      if (!signed) return res.end(JSON.stringify({ Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' }));
      if (this.failWith) return res.end(JSON.stringify({ ...this.failWith, RequestId: 'r-1' }));
      if (params.Action === 'SendSms') return res.end(JSON.stringify({ Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'r-2' }));
      if (params.Action === 'SingleCallByTts') return res.end(JSON.stringify({ Code: 'OK', Message: 'OK', CallId: '116012354148^10281378209', RequestId: 'r-3' }));
      res.statusCode = 404;
      res.end('{}');
    });
  }
}

describe('Alibaba Cloud RPC signature', () => {
  it('signs the documented example (DescribeRegions, testid / testsecret) to its published value', () => {
    const params = {
      TimeStamp: '2016-02-23T12:46:24Z',
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      Version: '2014-05-26',
      SignatureVersion: '1.0',
    };
    expect(stringToSign('GET', params)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26TimeStamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
    expect(rpcSignature('testsecret', 'GET', params)).toBe('CT9X0VtwR86fNWSnsc6v8YGOjuE=');
  });

  it('percent-encodes as the platform does: a space is %20, * is %2A, ~ stays', () => {
    expect(percentEncode("a b*c~d!'()")).toBe('a%20b%2Ac~d%21%27%28%29');
    expect(percentEncode('阿里')).toBe('%E9%98%BF%E9%87%8C');
  });
});

describe('AliyunNotices against a local platform', () => {
  const fake = new FakeAliyun();
  let notices: AliyunNotices;
  const message = {
    phone: '+8613800001111',
    outId: '42',
    params: { device: 'Pack 7 with a very long name that goes on and on', sn: 'SN-7', level: '4 严重', alarm: '温度过高', time: '2026-11-27 10:00:00 UTC' },
  };

  beforeAll(async () => {
    await fake.start();
    notices = new AliyunNotices({
      accessKeyId: 'key-id',
      accessKeySecret: 'key-secret',
      smsUrl: fake.url,
      voiceUrl: fake.url,
      signName: '控制台',
      smsTemplate: 'SMS_1',
      ttsTemplate: 'TTS_1',
      showNumber: '057100000000',
    });
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));

  it('sends an SMS and a call with signed requests and the template variables', async () => {
    expect(await notices.sendSms(message)).toEqual({ ref: '900619746936498440^0' });
    expect(await notices.call(message)).toEqual({ ref: '116012354148^10281378209' });
    const [sms, call] = fake.requests.slice(-2);
    expect(sms).toMatchObject({ signed: true, params: { Action: 'SendSms', PhoneNumbers: '8613800001111', SignName: '控制台', TemplateCode: 'SMS_1', OutId: '42', Version: '2017-05-25', AccessKeyId: 'key-id' } });
    const vars = JSON.parse(sms!.params.TemplateParam!) as Record<string, string>;
    expect(vars).toMatchObject({ sn: 'SN-7', level: '4 严重', alarm: '温度过高' });
    expect(vars.device!.length).toBeLessThanOrEqual(35);
    expect(call).toMatchObject({ signed: true, params: { Action: 'SingleCallByTts', CalledNumber: '8613800001111', TtsCode: 'TTS_1', CalledShowNumber: '057100000000' } });
  });

  it('turns a refusal into a NoticeError with the platform code, and a dead endpoint into network', async () => {
    fake.failWith = { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发流控' };
    await expect(notices.sendSms(message)).rejects.toMatchObject({ name: 'NoticeError', code: 'isv.BUSINESS_LIMIT_CONTROL', message: '触发流控' });
    fake.failWith = undefined;
    const wrongKey = new AliyunNotices({ accessKeyId: 'key-id', accessKeySecret: 'other', smsUrl: fake.url, voiceUrl: fake.url, signName: 's', smsTemplate: 't', ttsTemplate: 'v' });
    await expect(wrongKey.call(message)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    const dead = new AliyunNotices({ accessKeyId: 'a', accessKeySecret: 'b', smsUrl: 'http://127.0.0.1:9', voiceUrl: 'http://127.0.0.1:9', signName: 's', smsTemplate: 't', ttsTemplate: 'v' });
    const err = await dead.sendSms(message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoticeError);
    expect((err as NoticeError).code).toBe('network');
  });
});

describe('phone numbers', () => {
  it('keeps dialable numbers, splits a device field and masks for display', () => {
    expect(dialable(' 138-0000 1111 ')).toBe('13800001111');
    expect(dialable('0086 138 0000 1111')).toBe('+8613800001111');
    expect(dialable('+1 (555) 010-9999')).toBe('+15550109999');
    expect(dialable('call me')).toBeUndefined();
    expect(alarmPhones('13800001111, 139 0000 2222,13800001111')).toEqual(['13800001111', '13900002222']);
    expect(maskPhone('13800001111')).toBe('138****1111');
    expect(maskPhone('12345')).toBe('***45');
  });
});

describe('Alibaba Cloud refusals: for good or worth another try', () => {
  it('fails the caller\'s mistakes at once and retries the platform\'s and the network\'s', () => {
    const permanent = {
      'isv.MOBILE_NUMBER_ILLEGAL': 'number',
      'isv.TEMPLATE_MISSING_PARAMETERS': 'content',
      'isv.SMS_TEMPLATE_ILLEGAL': 'content',
      'isv.SMS_SIGNATURE_ILLEGAL': 'content',
      'InvalidAccessKeyId.NotFound': 'account',
      'InvalidAccessKeyId.Inactive': 'account',
      SignatureDoesNotMatch: 'account',
      'isv.AMOUNT_NOT_ENOUGH': 'account',
      'isv.DAY_LIMIT_CONTROL': 'quota',
      'Forbidden.NoPermission': 'account',
      'isv.SOMETHING_NEW': 'refused',
    };
    for (const [code, reason] of Object.entries(permanent)) expect(aliyunPermanent(code), code).toBe(reason);
    for (const code of ['isv.BUSINESS_LIMIT_CONTROL', 'Throttling', 'Throttling.User', 'isp.SYSTEM_ERROR', 'ServiceUnavailable', 'InternalError', 'http502', 'network', 'timeout', 'badAnswer'])
      expect(aliyunPermanent(code), code).toBeUndefined();
  });
});
