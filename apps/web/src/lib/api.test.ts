import { afterEach, describe, expect, it, vi } from 'vitest';
import { authRoutes, deviceDataRoutes, projectRoutes, userAdminRoutes } from '@iot/contract/plain';
import { api, pathOf } from './api';
import { ApiError } from './http';

/** The requests `fetch` was asked to send: address, method and body. */
function recordFetch(answer: object) {
  const sent: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, method: String(init.method), body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(answer));
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('api(): the declaration decides the request', () => {
  it('fills path parameters from `params`', () => {
    expect(pathOf(deviceDataRoutes.ingest, { kind: 'telemetry' })).toBe('/ingest/telemetry');
    expect(pathOf(projectRoutes.list)).toBe('/project/list');
  });

  it('sends the method, path and query of the declaration and resolves with `data`', async () => {
    const sent = recordFetch({ code: 20000, message: 'success', data: { total: 0, items: [] } });
    const page = await api(projectRoutes.list, { query: { name: 'a b', page: 2, limit: 10, sort: 'name' } });
    expect(page).toEqual({ total: 0, items: [] });
    expect(sent).toEqual([
      { url: '/api/v1/project/list?name=a+b&page=2&limit=10&sort=name', method: 'GET', body: undefined },
    ]);
  });

  it('sends a JSON body (an empty object when a POST declares none)', async () => {
    const sent = recordFetch({ code: 20000, message: 'ok', data: null });
    await api(userAdminRoutes.unlock, { body: { id: 7 } });
    await api(authRoutes.logout);
    await api(userAdminRoutes.remove, { query: { id: 3 } });
    expect(sent).toEqual([
      { url: '/api/v1/user/unlock', method: 'POST', body: { id: 7 } },
      { url: '/api/v1/user/logout', method: 'POST', body: {} },
      { url: '/api/v1/user/delete?id=3', method: 'DELETE', body: undefined },
    ]);
  });

  it('rejects with the envelope of a refusal', async () => {
    recordFetch({ code: 40300, message: 'forbidden', data: { reason: 'missingPermission' } });
    const err = await api(userAdminRoutes.list, { query: {}, silent: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 40300, data: { reason: 'missingPermission' } });
  });
});
