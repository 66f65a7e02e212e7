import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/** The super administrator's site settings page: POST /site/config (issue #39). */
describe('site settings', () => {
  let t: TestApp;
  let admin: string;
  let sub: string;

  const post = (token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/site/config', headers: bearer(token), payload: payload as object });
  const config = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json().data;
  /** Every field, as the page sends them: what /config answers, without the map settings. */
  const form = async () => {
    const { map: _map, ...fields } = await config();
    return fields as Record<string, string>;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.login();
    await t.createUser({ username: 'site-admin', password: 'site-admin-pass', role: 'ADMIN' });
    sub = await t.login('site-admin', 'site-admin-pass');
  });
  afterAll(() => t.close());

  it('the super administrator stores the contact details, in four languages, seen before login and logged', async () => {
    const body = {
      ...(await form()),
      contactTel: '+34 910 000 000',
      email: 'help@example.org',
      address: '北京市朝阳区 1 号',
      addressEn: '1 Chaoyang Road, Beijing',
      addressEs: 'Calle Chaoyang 1, Pekín',
      addressJa: '北京市朝陽区1号',
      titleEs: '  Consola de baterías  ',
      logo: 'data:image/png;base64,iVBORw0KGgo=',
    };
    const res = await post(admin, body);
    expect(res.json()).toMatchObject({ code: 20000 });
    expect(await config()).toMatchObject({
      contactTel: '+34 910 000 000',
      email: 'help@example.org',
      addressEs: 'Calle Chaoyang 1, Pekín',
      titleEs: 'Consola de baterías',
      logo: 'data:image/png;base64,iVBORw0KGgo=',
    });
    const log = (await t.app.inject({ method: 'GET', url: '/api/v1/logs/list?action=site.edit', headers: bearer(admin) })).json().data;
    expect(log.items.length).toBeGreaterThanOrEqual(1);
  });

  it('an administrator without site:edit is refused, and nothing changes', async () => {
    const before = await config();
    const res = await post(sub, { ...(await form()), contactTel: '000' });
    expect(res.statusCode).toBe(403);
    expect(await config()).toEqual(before);
  });

  it('a wrong field is named and nothing is stored', async () => {
    const before = await config();
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-address' }, 'email'],
      [{ logo: 'javascript:alert(1)' }, 'logo'],
      [{ title: '   ' }, 'title'],
      [{ particleButton: 'blue' }, 'particleButton'],
      [{ contactTel: 'call me' }, 'contactTel'],
      [{ addressEn: 'x'.repeat(201) }, 'addressEn'],
      [{ unknownField: 'x' }, 'unknownField'],
    ];
    for (const [change, field] of cases) {
      const res = await post(admin, { ...(await form()), ...change });
      expect(res.statusCode, field).toBe(400);
      expect(JSON.stringify(res.json()), field).toContain(field);
    }
    const missing = await form();
    delete missing.email;
    expect((await post(admin, missing)).statusCode).toBe(400);
    expect(await config()).toEqual(before);
  });
});
