/**
 * The device details page when the user's access to the device is withdrawn while it is open,
 * against the real server (apps/server/test/web-server.ts) and its real live channel: values
 * sent over the HTTP uplink arrive on the page, the administrator moves the device into another
 * tenant's project, and the page says that live access was withdrawn and stops showing them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import NodeWebSocket from 'ws';
import { ADMIN, apiBase, call, renderScreen, signIn, tokenOf, userWith } from '../../../test/server';
import { live } from '../../../lib/live';
import { sessionStore } from '../../../lib/session';
import DeviceDetailsPage from './DeviceDetailsPage';

const run = Date.now().toString(36);
const sn = `CTREV${run}`.toUpperCase();
let admin: string;
let device: { id: number; secret: string };
let elsewhere: number;

// The console opens its socket on the page's own host, as behind its dev server or in
// production; jsdom's page is not the server's, so the address (only) is the real server's. The
// socket is the `ws` package's: Node's own WebSocket cannot dispatch its events in jsdom.
vi.stubGlobal(
  'WebSocket',
  class extends NodeWebSocket {
    constructor(url: string | URL) {
      const target = new URL(String(url));
      target.host = new URL(apiBase).host;
      super(target);
    }
  },
);

/** The voltage reported over the HTTP uplink, as the device would. */
const report = async (volts: number) => {
  const res = await fetch(`${apiBase}/api/v1/ingest/telemetry`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${sn}:${device.secret}`)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: { V: volts } }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(20000);
};
const voltage = () => screen.getByTestId('value-V').textContent;

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  const viewer = await userWith(admin, `revoked${run}`, ['device:list', 'device:detail']);
  const users = await call<{ items: { id: number; username: string }[] }>(admin, 'GET', `/user/list?kind=user&username=${viewer.username}`);
  const viewerId = users.items.find((u) => u.username === viewer.username)!.id;
  // A type of one number (a battery type's pack view draws a chart, which jsdom cannot).
  const typeId = (await call(admin, 'POST', '/devicetype/addtype', { code: `CTR${run}`.slice(0, 16).toUpperCase(), name: '撤销测试', nameEn: 'Revoke test' })).id;
  await call(admin, 'POST', '/devicetype/addsetparam', {
    id: typeId,
    params: [{ semaphoreId: 'V', name: '电压', nameEn: 'Voltage', dataType: 'number', unit: 'V', sort: 1 }],
  });
  // The viewer's own project and device; another tenant's project to move the device into.
  const mine = (await call(admin, 'POST', '/project/addproject', { name: `Viewer yard ${run}`, ownerId: viewerId })).id;
  elsewhere = (await call(admin, 'POST', '/project/addproject', { name: `Other yard ${run}` })).id;
  device = await call<{ id: number; secret: string }>(admin, 'POST', '/device/add', { name: 'Watched rack', sn, typeId, projectId: mine });
  await signIn(viewer.username, viewer.password);
  live.start({ userId: viewerId, token: sessionStore.get().token! });
});
afterAll(() => live.stop());

/** 48 V as the page writes a quantity (a no-break space before the unit). */
const SHOWN = '48\u00a0V';

describe('DeviceDetailsPage, access withdrawn while open', () => {
  it('says live access was withdrawn and no longer shows the live values', async () => {
    renderScreen(<DeviceDetailsPage />, `/?id=${device.id}`);
    await screen.findByTestId('value-V');
    expect(voltage()).not.toBe(SHOWN);
    // Values reach the page only over the live channel once it has signed in and followed the
    // device (a second and a half after it opens): report until one arrives.
    await waitFor(
      async () => {
        await report(48);
        expect(voltage()).toBe(SHOWN);
      },
      { timeout: 15_000, interval: 500 },
    );
    expect(screen.queryByTestId('live-revoked')).toBeNull();

    await call(admin, 'POST', '/device/edit', { id: device.id, projectId: elsewhere });

    expect((await screen.findByTestId('live-revoked')).textContent).toContain('Your access to this device was withdrawn');
    expect(voltage()).not.toBe(SHOWN);
  });
});
