/**
 * The component tests' side of the real server (apps/server/test/web-server.ts): API calls with
 * an explicit token to create what a test needs, users holding chosen permission codes, signing
 * in as the console does, and rendering a screen in the providers the app gives it.
 */
import type { ReactNode } from 'react';
import { inject } from 'vitest';
import { render } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { userRoutes } from '@iot/contract/plain';
import type { PermissionCode } from '@iot/contract';
import { api } from '../lib/api';
import { i18nReady } from '../lib/i18n';
import { login, sessionStore } from '../lib/session';

export const apiBase = inject('apiBase');
export const ADMIN = { username: 'admin', password: inject('adminPassword') };

/** Calls the API as `token`; resolves with `data` (by default what an add answers), throws on any other code than 20000. */
export async function call<T = { id: number }>(token: string, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const res = await fetch(`${apiBase}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  const envelope = (await res.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 20000) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

export async function tokenOf(username: string, password: string): Promise<string> {
  const res = await fetch(`${apiBase}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, captcha: '', key: '' }),
  });
  const envelope = (await res.json()) as { code: number; message: string; data: { token: string } };
  if (envelope.code !== 20000) throw new Error(`login ${username}: ${envelope.message}`);
  return envelope.data.token;
}

/** A new user whose role holds exactly `codes`, created by the administrator. */
export async function userWith(admin: string, name: string, codes: PermissionCode[]) {
  const ids = await Promise.all(
    codes.map(async (code) => {
      const page = await call<{ items: { id: number; identification: string }[] }>(admin, 'GET', `/permission/getlist?identification=${encodeURIComponent(code)}&limit=100`);
      return page.items.find((p) => p.identification === code)!.id;
    }),
  );
  const role = await call<{ id: number }>(admin, 'POST', '/role/add', { name: `Role ${name}`, identification: `R_${name}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_') });
  await call(admin, 'POST', '/role/setpermission', { id: role.id, permissionIds: ids });
  const password = 'component-pass-1';
  await call(admin, 'POST', '/user/add', {
    username: name, password, type: 1, roleId: role.id, corporateName: 'Acme Energy', corporateAddress: '1 Harbour Road', contactNumber: '555 0101',
  });
  return { username: name, password };
}

/** Signs in through the console's own login (token cookie) and loads the user's permissions. */
export async function signIn(username: string, password: string): Promise<void> {
  await i18nReady;
  await login({ username, password, captcha: '', key: '' });
  const user = await api(userRoutes.info);
  sessionStore.set((s) => ({ ...s, status: 'ready', user, menus: [] }));
}

/** Renders a screen as the app does: a fresh cache (no retries), antd's App and a router. */
export function renderScreen(ui: ReactNode, route = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}
