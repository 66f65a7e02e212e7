/**
 * The home dashboard against the real server (apps/server/test/web-server.ts): a user whose
 * subtree holds a project with two simulated battery units, one of which has tripped a fault and
 * has an alarm phone number, sees its figures in each of the three styles; a user without devices
 * sees what to do next in each. Nothing here answers for the server.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BmuModel, type Uplink } from '@iot/sim-model';
import type { DashboardStyle } from '@iot/contract';
import { ADMIN, apiBase, call, renderScreen, signIn, tokenOf, userWith } from '../../test/server';
import { sent } from '../../test/setup';
import { patchUser } from '../../lib/session';
import DashboardPage from './DashboardPage';

const run = Date.now().toString(36);
/** What a dashboard user holds: the dashboard and the lists its cards lead to. */
const CODES = ['home:view', 'device:list', 'device:detail', 'device:add', 'device:import', 'alarm:list', 'project:list'] as const;
let admin: string;
let owner: { username: string; password: string };
let newcomer: { username: string; password: string };
let faulty: { id: number; sn: string };

/** The model's messages up to and including its first device alarm (deterministic by seed). */
function untilAlarm(sn: string): Uplink[] {
  const start = Date.now() - 3_600_000;
  const bmu = new BmuModel({ sn, now: start, seed: 7, faultsPerHour: 60, track: false });
  const out: Uplink[] = [];
  for (let i = 1; i < 50_000; i++) {
    const m = bmu.next(start + i * 1000);
    out.push(m);
    if (m.kind === 'alarm') return out;
  }
  throw new Error('the model tripped no fault');
}

async function uplink(sn: string, secret: string, messages: Uplink[]) {
  for (const m of messages) {
    const res = await fetch(`${apiBase}/api/v1/ingest/${m.kind}`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${sn}:${secret}`)}`, 'content-type': 'application/json' },
      body: JSON.stringify(m.body),
    });
    expect(((await res.json()) as { code: number }).code).toBe(20000);
  }
}

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  owner = await userWith(admin, `home${run}`, [...CODES]);
  newcomer = await userWith(admin, `homenew${run}`, [...CODES]);
  const users = await call<{ items: { id: number; username: string }[] }>(admin, 'GET', `/user/list?kind=user&username=${owner.username}`);
  const ownerId = users.items.find((u) => u.username === owner.username)!.id;
  const types = await call<{ id: number; code: string }[]>(admin, 'GET', '/devicetype/typeoptionslist');
  const bmu = types.find((t) => t.code === 'BMU')!;
  const project = (await call(admin, 'POST', '/project/addproject', { name: `Home yard ${run}`, ownerId })).id;
  const sn = `HOME${run}`.toUpperCase();
  const added = await call<{ id: number; secret: string }>(admin, 'POST', '/device/add', {
    name: `Faulty rack ${run}`, sn, typeId: bmu.id, projectId: project, alarmPhone: '+34 600 000 001',
  });
  faulty = { id: added.id, sn };
  const quiet = await call<{ id: number; secret: string }>(admin, 'POST', '/device/add', {
    name: `Quiet rack ${run}`, sn: `${sn}Q`, typeId: bmu.id, projectId: project,
  });
  // The last messages before the fault, then its alarm; the quiet one reports its values only.
  await uplink(sn, added.secret, untilAlarm(sn).slice(-4));
  await uplink(`${sn}Q`, quiet.secret, untilAlarm(`${sn}Q`).filter((m) => m.kind !== 'alarm').slice(-2));
}, 120_000);

async function open(user: { username: string; password: string }, style: DashboardStyle) {
  await signIn(user.username, user.password);
  patchUser({ dashboardStyle: style });
  renderScreen(<DashboardPage />);
}

/** A headline figure once loaded. */
const figure = async (testId: string) => Number((await screen.findByTestId(testId)).getAttribute('data-value'));

describe('DashboardPage with a fleet', () => {
  // Six cards rendered in jsdom on a shared machine: slower than the usual 30 s.
  it('default style: headline counts, levels, trend, top 5, device states and projects', async () => {
    await open(owner, 'default');
    await screen.findByTestId('home-style-default');
    expect(await figure('home-devices-total')).toBe(2);
    expect(await figure('home-projects-total')).toBe(1);
    expect(await figure('home-alarms-total')).toBeGreaterThanOrEqual(1);
    expect(await figure('home-devices-alarming')).toBe(1);
    // Each level in its word; the faulty device first among the top 5, linking to its details.
    const levels = await screen.findByTestId('home-levels-table');
    expect(within(levels).getAllByRole('row')).toHaveLength(5);
    const top = await screen.findByTestId('home-top-devices');
    expect(within(top).getAllByRole('link')[0]!.getAttribute('href')).toBe(`/project/info?id=${faulty.id}`);
    // The trend's figures for screen readers.
    expect(await screen.findByTestId('home-trend-chart-table')).toBeTruthy();
    // The device list: the alarming filter asks the server for the alarming ones only.
    const list = await screen.findByTestId('home-device-list');
    await within(list).findByTestId(`home-device-${faulty.id}`);
    fireEvent.click(within(screen.getByTestId('home-device-filter')).getByText('Alarming'));
    await waitFor(() => expect(sent.some((s) => s.startsWith('/api/v1/home/devicelist') && s.includes('state=alarming'))).toBe(true));
    await within(list).findByTestId(`home-device-${faulty.id}`);
    expect(within(await screen.findByTestId('home-projects-top')).getByText(`Home yard ${run}`)).toBeTruthy();
    // No polling: every dashboard request was asked once on load or by the filter.
    expect(sent.filter((s) => s.startsWith('/api/v1/home/list')).length).toBe(1);
  }, 90_000);

  it('battery style: state of charge, pack states and the packs that need a look', async () => {
    await open(owner, 'battery');
    await screen.findByTestId('home-style-battery');
    expect(await figure('home-devices-total')).toBe(2);
    await screen.findByTestId('home-soc');
    const states = await screen.findByTestId('home-battery-states');
    // The card is there while /home/battery loads (a skeleton): wait for its figures.
    await within(states).findByTestId('home-battery-charging');
    const counted = ['charging', 'discharging', 'idle', 'unknown'].map((s) => Number(within(states).getByTestId(`home-battery-${s}`).getAttribute('data-value')));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(2);
    const lowest = await screen.findByTestId('home-lowest-soc');
    expect(within(lowest).getAllByRole('link').length).toBeGreaterThan(0);
  });

  it('voice style: devices with phone numbers and minutes left unknown, never 0', async () => {
    await open(owner, 'voice');
    await screen.findByTestId('home-style-voice');
    expect(await figure('home-voice-devices')).toBe(1);
    // No SIM card is linked to these devices: unknown, with why.
    const minutes = await screen.findByTestId('home-voice-minutes-unknown');
    expect(minutes.textContent).toMatch(/Unknown/);
    expect(screen.queryByTestId('home-voice-minutes-left')).toBeNull();
    // The faulty rack's alarm called out: its number and what was sent for it (the simulated
    // provider's SMS and call, still to send, or nothing below the phone level).
    const recent = await screen.findByTestId('home-voice-recent-list');
    expect(recent.textContent).toContain('+34 600 000 001');
    expect(within(recent).getByTestId('home-voice-recent-sent').textContent).toMatch(/SMS sent|call made|still to send|Nothing sent/);
  });
});

describe('DashboardPage without devices', () => {
  for (const style of ['default', 'battery', 'voice'] as const) {
    it(`${style} style: says how to start (add, import, the demo)`, async () => {
      await open(newcomer, style);
      const empty = await screen.findByTestId('home-empty');
      expect(within(empty).getByTestId('home-empty-add')).toBeTruthy();
      expect(within(empty).getByTestId('home-empty-import')).toBeTruthy();
      expect(within(empty).getByTestId('home-empty-demo').textContent).toContain('DEMO=1');
      expect(screen.queryByTestId(`home-style-${style}`)).toBeNull();
      expect(screen.getByTestId('dashboard-logins')).toBeTruthy();
    });
  }
});
