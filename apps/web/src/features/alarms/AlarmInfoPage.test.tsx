/**
 * The alarm list as a user sees it, against the real server (apps/server/test/web-server.ts):
 * alarms raised by telemetry sent over the HTTP uplink, their columns and values, sorting and
 * filters asking the server, the total, the empty list, processing only with alarm:handle, and
 * the message of a refused request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { sent } from '../../test/setup';
import { ADMIN, apiBase, call, renderScreen, signIn, tokenOf, userWith } from '../../test/server';
import AlarmInfoPage from './AlarmInfoPage';

const run = Date.now().toString(36);
const prefix = `CTALM${run}`;
let admin: string;
let project: { id: number; name: string };
const alarmOf: Record<string, number> = {};

const table = () => screen.getByTestId('table-alarms');
const header = (title: string) => Array.from(table().querySelectorAll('thead th')).find((th) => th.textContent === title)!;
const rows = () =>
  Array.from(table().querySelectorAll<HTMLTableRowElement>('tr.ant-table-row')).map((tr) => Array.from(tr.cells).map((c) => c.textContent ?? ''));
const devices = () => rows().map((cells) => cells.find((c) => c.includes(' rack')) ?? '');
const listRequests = () => sent.filter((u) => u.startsWith('/api/v1/device/alarmlist?'));

/** Types the device filter and presses Search: the list then holds this file's alarms only. */
async function showMine() {
  fireEvent.change(screen.getByLabelText('Device name or SN'), { target: { value: prefix } });
  fireEvent.click(screen.getByTestId('filter-search'));
  await waitFor(() => expect(rows()).toHaveLength(2));
}

/** Picks an option of an antd Select by its label. */
async function pick(testId: string, option: string) {
  const select = screen.getByTestId(testId);
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
  // Table cells cut with an ellipsis carry their text as a title too: take the dropdown's.
  const matches = await screen.findAllByTitle(option);
  fireEvent.click(matches.find((m) => m.classList.contains('ant-select-item-option')) ?? matches[0]!);
}

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  project = { name: `Alarm yard ${run}`, id: 0 };
  project.id = (await call(admin, 'POST', '/project/addproject', { name: project.name })).id;
  const typeId = (await call(admin, 'POST', '/devicetype/addtype', { code: `CT${run}`.slice(0, 16).toUpperCase(), name: '组件测试', nameEn: 'Component test' })).id;
  await call(admin, 'POST', '/devicetype/addsetparam', {
    id: typeId,
    params: [
      { semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 },
      { semaphoreId: 'V', name: '电压', nameEn: 'Voltage', dataType: 'number', sort: 2 },
    ],
  });
  await call(admin, 'POST', '/devicetype/addsetalarm', {
    id: typeId,
    rules: [
      { semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 3, message: '温度过高', messageEn: 'Too hot' },
      { semaphoreId: 'V', comparison: 'lt', threshold: 10, level: 2, message: '欠压', messageEn: 'Under-voltage' },
    ],
  });
  // Each device reports one value that breaks a rule, over the HTTP uplink.
  for (const [key, name, values] of [
    ['hot', 'Hot rack', { T: 61.5 }],
    ['low', 'Low rack', { V: 4.2 }],
  ] as const) {
    const sn = `${prefix}${key.toUpperCase()}`;
    // The hot rack has an alarm phone: its level-3 alarm is a call-out (SMS and call, simulated);
    // the simulated provider refuses the second number (+999) as invalid, for good.
    const alarmPhone = key === 'hot' ? '13900007777, +999 1234 5678' : '';
    const device = await call<{ id: number; secret: string }>(admin, 'POST', '/device/add', { name, sn, typeId, projectId: project.id, alarmPhone });
    const res = await fetch(`${apiBase}/api/v1/ingest/telemetry`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${sn}:${device.secret}`)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ts: Date.now() - 60_000, values }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(20000);
    const page = await call<{ items: { id: number }[] }>(admin, 'GET', `/device/alarmlist?deviceId=${device.id}`);
    alarmOf[key] = page.items[0]!.id;
  }
});

describe('AlarmInfoPage, signed in as the administrator', () => {
  beforeAll(() => signIn(ADMIN.username, ADMIN.password));

  it("shows each alarm's level, device, text, state and processing; project, value and end on demand", async () => {
    localStorage.clear();
    renderScreen(<AlarmInfoPage />);
    await showMine();
    for (const title of ['Level', 'Device', 'Alarm', 'Warning date', 'State', 'Processed']) {
      expect(header(title), title).toBeTruthy();
    }
    expect(header('Project')).toBeUndefined();
    expect(header('Ended at')).toBeUndefined();
    // The less used columns are in the column chooser.
    fireEvent.click(screen.getByTestId('column-chooser'));
    fireEvent.click(await screen.findByTestId('column-toggle-projectName'));
    fireEvent.click(await screen.findByTestId('column-toggle-value'));
    fireEvent.click(await screen.findByTestId('column-toggle-endedAt'));
    await waitFor(() => expect(header('Value')).toBeTruthy());
    await waitFor(() => expect(header('Ended at')).toBeTruthy());
    const hot = rows().find((cells) => cells.some((c) => c.includes('Hot rack')))!;
    expect(hot).toEqual(expect.arrayContaining(['3 · Major', `Hot rack${prefix}HOT`, project.name, '61.5', 'Active', 'Untreated']));
    expect(hot.some((c) => c.startsWith('Too hot'))).toBe(true);
    const low = rows().find((cells) => cells.some((c) => c.includes('Low rack')))!;
    expect(low).toEqual(expect.arrayContaining(['2 · Minor', '4.2']));
    expect(low.some((c) => c.startsWith('Under-voltage'))).toBe(true);
    expect(screen.getByText('2 in total')).toBeTruthy();
    localStorage.clear();
  });

  it('sorts by level on the server when the Level title is clicked', async () => {
    renderScreen(<AlarmInfoPage />);
    await showMine();
    fireEvent.click(header('Level'));
    await waitFor(() => expect(devices()).toEqual([`Low rack${prefix}LOW`, `Hot rack${prefix}HOT`]));
    expect(listRequests().at(-1)).toMatch(/[?&]sort=level&order=asc/);
    fireEvent.click(header('Level'));
    await waitFor(() => expect(devices()).toEqual([`Hot rack${prefix}HOT`, `Low rack${prefix}LOW`]));
    expect(listRequests().at(-1)).toMatch(/[?&]sort=level&order=desc/);
  });

  it('asks the server for the level picked and shows only those alarms', async () => {
    renderScreen(<AlarmInfoPage />);
    await showMine();
    await pick('alarm-filter-level', '3 · Major');
    fireEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(devices()).toEqual([`Hot rack${prefix}HOT`]));
    expect(listRequests().at(-1)).toMatch(/[?&]level=3(&|$)/);
    expect(listRequests().at(-1)).toContain(`device=${prefix}`);
    expect(screen.getByText('1 in total')).toBeTruthy();
  });

  it('shows the empty state when nothing matches', async () => {
    renderScreen(<AlarmInfoPage />);
    fireEvent.change(await screen.findByLabelText('Device name or SN'), { target: { value: `${prefix}NONE` } });
    fireEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(listRequests().at(-1)).toContain(`device=${prefix}NONE`));
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
    expect(rows()).toHaveLength(0);
  });

  it('offers Process on each untreated alarm', async () => {
    renderScreen(<AlarmInfoPage />);
    await showMine();
    expect(screen.getByTestId(`alarm-process-${alarmOf.hot}`).textContent).toBe('Process');
    expect(screen.getByTestId('alarm-process-selected')).toBeTruthy();
    expect(header('Actions')).toBeTruthy();
  });

  it("opens an alarm's SMS and calls: sent to the alarm phone, masked; none for the other", async () => {
    renderScreen(<AlarmInfoPage />);
    await showMine();
    fireEvent.click(screen.getByTestId(`alarm-expand-${alarmOf.hot}`));
    const notices = await screen.findByTestId(`alarm-notices-${alarmOf.hot}`);
    await waitFor(() => expect(notices.textContent).toContain('Voice call'));
    expect(notices.textContent).toContain('SMS');
    expect(notices.textContent).toContain('to the alarm phone 139****7777');
    expect(notices.textContent).toContain('Sent');
    // The invalid number: failed at the first attempt, the reason in the user's words.
    await waitFor(() => expect(notices.textContent).toContain('to the alarm phone +99*****5678'));
    expect(notices.textContent).toContain('Failed');
    expect(notices.textContent).toContain('1 attempt · sim.NUMBER_ILLEGAL');
    expect(notices.textContent).toContain('Not retried: the provider says the number is invalid or cannot receive it.');
    fireEvent.click(screen.getByTestId(`alarm-expand-${alarmOf.low}`));
    expect(await screen.findByText('No SMS or call for this alarm.')).toBeTruthy();
  });
});

describe('AlarmInfoPage, signed in with alarm:list but not alarm:handle', () => {
  beforeAll(async () => {
    const viewer = await userWith(admin, `alarmviewer${run}`, ['alarm:list', 'project:list']);
    const { id } = (await call<{ id: number }[]>(admin, 'GET', `/user/options?q=${viewer.username}&limit=5`))[0]!;
    await call(admin, 'POST', '/project/setuserproject', { id: project.id, userIds: [id] });
    await signIn(viewer.username, viewer.password);
  });

  it('shows the alarms without any way to process them', async () => {
    renderScreen(<AlarmInfoPage />);
    await showMine();
    expect(screen.queryByTestId(`alarm-process-${alarmOf.hot}`)).toBeNull();
    expect(screen.queryByTestId('alarm-process-selected')).toBeNull();
    expect(header('Actions')).toBeUndefined();
  });
});

describe('AlarmInfoPage, signed in without alarm:list', () => {
  beforeAll(async () => {
    const other = await userWith(admin, `noalarms${run}`, ['device:list']);
    await signIn(other.username, other.password);
  });

  it("shows the server's refusal as a message and an empty table", async () => {
    renderScreen(<AlarmInfoPage />);
    expect(await screen.findByText('You do not have the permission alarm:list or device:detail', {}, { timeout: 5_000 })).toBeTruthy();
    expect(rows()).toHaveLength(0);
  });
});
