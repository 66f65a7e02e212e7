import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WeatherService } from '../src/modules/project/weather.service.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { FakeOpenMeteo } from './open-meteo.js';

const quiet = { warn: () => undefined } as never;

describe('project weather from a local Open-Meteo', () => {
  let t: TestApp;
  let token: string;
  const fake = new FakeOpenMeteo();

  const call = async (url: string, payload?: object, tok = token) =>
    (await t.app.inject({ method: payload ? 'POST' : 'GET', url: `/api/v1${url}`, headers: bearer(tok), payload })).json();
  const project = async (body: object) => {
    const r = await call('/project/addproject', body);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return r.data.id as number;
  };

  beforeAll(async () => {
    t = await buildTestApp({ WEATHER_URL: await fake.start() });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers the forecast at the position, cached per rounded position; nothing for a project with the switch off', async () => {
    const before = fake.requests.length;
    const id = await project({ name: 'Sunny yard', weather: true, lng: 120.15507, lat: 30.27415 });
    const r = await call(`/project/weather?id=${id}`);
    expect(r.code).toBe(20000);
    expect(r.data).toMatchObject({
      state: 'ok',
      forecast: {
        lat: 30.27,
        lng: 120.16,
        current: { temperature: 21.5, weatherCode: 3, windSpeed: 12.3 },
        daily: [
          { date: '2026-11-27', weatherCode: 3, tempMax: 24.1, tempMin: 15.2, precipitation: 0 },
          { date: '2026-11-28', weatherCode: 61 },
          { date: '2026-11-29', weatherCode: 0 },
        ],
      },
    });
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.get('latitude')).toBe('30.27');
    // Again, and a neighbour within the rounding: the cached forecast.
    const near = await project({ name: 'Next door', weather: true, lng: 120.1553, lat: 30.2739 });
    expect((await call(`/project/weather?id=${id}`)).data.state).toBe('ok');
    expect((await call(`/project/weather?id=${near}`)).data.forecast.lat).toBe(30.27);
    expect(fake.requests.length).toBe(before + 1);
    // Switch off, or no position: no request at all.
    const off = await project({ name: 'Indoor', weather: false, lng: 10, lat: 10 });
    expect((await call(`/project/weather?id=${off}`)).data).toEqual({ state: 'off', forecast: null });
    const nowhere = await project({ name: 'Nowhere', weather: true });
    expect((await call(`/project/weather?id=${nowhere}`)).data).toEqual({ state: 'noPosition', forecast: null });
    expect(fake.requests.length).toBe(before + 1);
  });

  it("refuses another line's project as it refuses its details", async () => {
    const id = await project({ name: 'Admin only', weather: true, lng: 1, lat: 1 });
    await t.createUser({ username: 'wx-agent', password: 'wx-agent-pass-1', role: 'ADMIN' });
    const agent = await t.login('wx-agent', 'wx-agent-pass-1');
    const item = await call(`/project/item?id=${id}`, undefined, agent);
    const weather = await call(`/project/weather?id=${id}`, undefined, agent);
    expect(item.code).not.toBe(20000);
    expect(weather.code).toBe(item.code);
  });

  it('answers unavailable while the provider fails, the project itself unchanged', async () => {
    fake.failing = true;
    try {
      const id = await project({ name: 'Stormy', weather: true, lng: 100.5, lat: 13.75 });
      expect((await call(`/project/weather?id=${id}`)).data).toEqual({ state: 'unavailable', forecast: null });
      expect((await call(`/project/item?id=${id}`)).code).toBe(20000);
    } finally {
      fake.failing = false;
    }
  });

  it('fetches again after the hour, and retries a failure after five minutes', async () => {
    let now = 1_000_000;
    const service = new WeatherService({ baseUrl: t.config.weatherUrl, now: () => now }, quiet);
    const n = () => fake.requests.filter((q) => q.get('latitude') === '-33.87').length;
    await service.at(-33.8688, 151.2093);
    await service.at(-33.8688, 151.2093);
    expect(n()).toBe(1);
    now += 3_600_001;
    await service.at(-33.8688, 151.2093);
    expect(n()).toBe(2);
    fake.failing = true;
    now += 3_600_001;
    expect(await service.at(-33.8688, 151.2093)).toBeNull();
    fake.failing = false;
    now += 60_000;
    expect(await service.at(-33.8688, 151.2093)).toBeNull(); // the failure is remembered for 5 minutes
    now += 300_000;
    expect(await service.at(-33.8688, 151.2093)).not.toBeNull();
    expect(n()).toBe(4);
  });
});

describe('project weather without a provider', () => {
  it('answers unavailable for an unreachable address and off for WEATHER_URL=off', async () => {
    const unreachable = await buildTestApp({ WEATHER_URL: 'http://127.0.0.1:9' });
    const off = await buildTestApp();
    try {
      for (const [t, state] of [[unreachable, 'unavailable'], [off, 'off']] as const) {
        const token = await t.login();
        const add = (await t.app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: bearer(token), payload: { name: 'Field', weather: true, lng: 2.35, lat: 48.85 } })).json();
        const r = (await t.app.inject({ method: 'GET', url: `/api/v1/project/weather?id=${add.data.id}`, headers: bearer(token) })).json();
        expect(r).toMatchObject({ code: 20000, data: { state, forecast: null } });
      }
    } finally {
      await unreachable.close();
      await off.close();
    }
  });
});
