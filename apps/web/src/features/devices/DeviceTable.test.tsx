/**
 * The device list as a user sees it, against the real server (apps/server/test/web-server.ts):
 * its columns and values, sorting and filters asking the server, the totals under the table,
 * the empty list, row actions only with the permission, and the message of a refused request.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { inject } from 'vitest';
import { sent } from '../../test/setup';
import { ADMIN, call, renderScreen, signIn, tokenOf, userWith } from '../../test/server';
import { useLocation } from 'react-router';
import { DeviceTable } from './DeviceTable';

const run = Date.now().toString(36);
let admin: string;
let project: { id: number; name: string };
let empty: { id: number; name: string };
const ids: Record<string, number> = {};

/** A column title of the table (antd draws the header twice when the table scrolls). */
const header = (title: string) =>
  Array.from(screen.getByTestId('table-devices').querySelectorAll('thead th')).find((th) => th.textContent === title)!;
/** The data rows of the table, each as its cells' text. */
const rows = () =>
  Array.from(screen.getByTestId('table-devices').querySelectorAll<HTMLTableRowElement>('tr.ant-table-row')).map((tr) =>
    Array.from(tr.cells).map((c) => c.textContent ?? ''),
  );
/** Each row's device name (the name cell also shows the project under it). */
const names = () =>
  Array.from(screen.getByTestId('table-devices').querySelectorAll('tr.ant-table-row')).map(
    (tr) => tr.querySelector('strong')?.textContent ?? '',
  );
const listRequests = () => sent.filter((u) => u.startsWith('/api/v1/device/list?'));

/** The list's address as the router holds it (what Back, a tab or a copied link reopen). */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}
/** The device list page's table, opened at `/?projectId=…` plus `query`, as a project's link does. */
const openList = (p: { id: number; name: string }, query = '') =>
  renderScreen(
    <>
      <DeviceTable inAddress projectNames={{ [p.id]: p.name }} />
      <Address />
    </>,
    `/?projectId=${p.id}${query}`,
  );
const address = () => new URLSearchParams(screen.getByTestId('address').textContent ?? '');

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  const typeId = (await call<{ id: number; code: string }[]>(admin, 'GET', '/devicetype/typeoptionslist'))[0]!.id;
  project = { name: `Yard ${run}`, id: 0 };
  project.id = (await call(admin, 'POST', '/project/addproject', { name: project.name })).id;
  empty = { name: `Empty ${run}`, id: 0 };
  empty.id = (await call(admin, 'POST', '/project/addproject', { name: empty.name })).id;
  for (const [key, fields] of Object.entries({
    alpha: { name: 'Alpha rack', sn: `CTA${run}`, imei: '861234567890123' },
    bravo: { name: 'Bravo rack', sn: `CTB${run}` },
    charlie: { name: 'Charlie rack', sn: `CTC${run}`, enabled: false },
  })) {
    ids[key] = (await call(admin, 'POST', '/device/add', { ...fields, typeId, projectId: project.id })).id;
  }
});

describe('DeviceTable, signed in as the administrator', () => {
  beforeAll(() => signIn(ADMIN.username, ADMIN.password));
  // The column chooser remembers choices in localStorage: each test starts from the defaults.
  beforeEach(() => localStorage.clear());

  it("shows each device's name with its project, SN, state, warning level and last seen by default", async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    const table = screen.getByTestId('table-devices');
    for (const title of ['Device name', 'Device code (SN)', 'Status', 'Warning level', 'Last seen']) {
      expect(within(table).getAllByText(title).length, title).toBeGreaterThan(0);
    }
    for (const title of ['Type', 'Module (IMEI)', 'Created']) {
      expect(within(table).queryAllByText(title), title).toHaveLength(0);
    }
    // Newest first (the server's default order): Charlie was added last.
    expect(names()).toEqual(['Charlie rack', 'Bravo rack', 'Alpha rack']);
    const alpha = rows()[2]!;
    expect(alpha).toEqual(expect.arrayContaining([`Alpha rack${project.name}`, `CTA${run}`, 'Offline', 'None']));
    const charlie = rows()[0]!;
    expect(charlie).toContain('Disabled');
    expect(screen.getByText('3 in total')).toBeTruthy();
  });

  it('shows the type, IMEI and creation time once turned on in the column chooser, and hides them again', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('column-chooser'));
    for (const key of ['typeName', 'imei', 'createdAt']) fireEvent.click(await screen.findByTestId(`column-toggle-${key}`));
    const table = screen.getByTestId('table-devices');
    await waitFor(() => expect(within(table).getAllByText('Module (IMEI)').length).toBeGreaterThan(0));
    expect(rows()[2]).toEqual(expect.arrayContaining(['861234567890123']));
    expect(within(table).getAllByText('Type').length).toBeGreaterThan(0);
    expect(within(table).getAllByText('Created').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('column-chooser-reset'));
    await waitFor(() => expect(within(table).queryAllByText('Module (IMEI)')).toHaveLength(0));
  });

  it('opens on the search, filter, sort and page its address names, and writes new ones there', async () => {
    openList(project, '&q=rack&enabled=true&sort=sn&order=asc');
    await waitFor(() => expect(names()).toEqual(['Alpha rack', 'Bravo rack']));
    expect((screen.getByLabelText('Name, SN, IMEI or SIM number') as HTMLInputElement).value).toBe('rack');
    expect(screen.getByTestId('filter-enabled').textContent).toContain('Enabled');
    expect(listRequests().at(-1)).toMatch(/[?&]sort=sn&order=asc/);
    // A new search goes into the address and drops the page; the others stay.
    const search = screen.getByLabelText('Name, SN, IMEI or SIM number');
    fireEvent.change(search, { target: { value: 'Bravo' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(names()).toEqual(['Bravo rack']));
    expect(Object.fromEntries(address())).toEqual({ projectId: String(project.id), q: 'Bravo', enabled: 'true', sort: 'sn', order: 'asc' });
  });

  it('sorts by SN on the server when the SN title is clicked, and reverses on a second click', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(header('Device code (SN)'));
    await waitFor(() => expect(names()).toEqual(['Alpha rack', 'Bravo rack', 'Charlie rack']));
    expect(listRequests().at(-1)).toMatch(/[?&]sort=sn&order=asc/);
    fireEvent.click(header('Device code (SN)'));
    await waitFor(() => expect(names()).toEqual(['Charlie rack', 'Bravo rack', 'Alpha rack']));
    expect(listRequests().at(-1)).toMatch(/[?&]sort=sn&order=desc/);
  });

  it('asks the server for the text searched and shows only what it finds', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    const search = screen.getByLabelText('Name, SN, IMEI or SIM number');
    fireEvent.change(search, { target: { value: 'Bravo' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(names()).toEqual(['Bravo rack']));
    expect(listRequests().at(-1)).toMatch(/[?&]q=Bravo(&|$)/);
    expect(listRequests().at(-1)).toContain(`projectId=${project.id}`);
  });

  it('filters on state: "Disabled" asks for enabled=false', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    const select = screen.getByTestId('filter-enabled');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByTitle('Disabled'));
    await waitFor(() => expect(names()).toEqual(['Charlie rack']));
    expect(listRequests().at(-1)).toMatch(/[?&]enabled=false/);
  });

  it('says "more than 10000" when the server counted only up to its cap, and pages on the server', async () => {
    const bulk = inject('bulkProjectId');
    openList({ id: bulk, name: 'Bulk fleet' });
    await screen.findByText('more than 10000', {}, { timeout: 20_000 });
    expect(rows()).toHaveLength(20);
    expect(rows()[0]).toContain('BULK-10050');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(rows()[0]).toContain('BULK-10030'), { timeout: 20_000 });
    expect(listRequests().at(-1)).toMatch(/[?&]page=2&limit=20/);
  });

  it('shows the empty state for a project without devices', async () => {
    openList(empty);
    await waitFor(() => expect(listRequests().length).toBeGreaterThan(0));
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
    expect(rows()).toHaveLength(0);
  });

  it('opens the add drawer or the import dialog from `?open=` (the dashboard\'s empty state) and leaves the address', async () => {
    openList(project, '&open=add');
    expect(await screen.findByTestId('device-form')).toBeTruthy();
    await waitFor(() => expect(address().get('open')).toBeNull());
    expect(address().get('projectId')).toBe(String(project.id));
    cleanup();
    openList(project, '&open=import');
    expect(await screen.findByTestId('import-check')).toBeTruthy();
    await waitFor(() => expect(address().get('open')).toBeNull());
  });

  it('offers edit and delete on each row', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByTestId(`row-edit-${ids.alpha}`)).toBeTruthy();
    expect(screen.getByTestId(`row-delete-${ids.alpha}`)).toBeTruthy();
    expect(screen.getByTestId('btn-bulk-delete')).toBeTruthy();
  });
});

describe('DeviceTable, signed in with device:list only', () => {
  beforeAll(async () => {
    const viewer = await userWith(admin, `viewer${run}`, ['device:list', 'project:list']);
    // The viewer sees the project's devices: share the project with them.
    const { id } = await call<{ id: number }[]>(admin, 'GET', `/user/options?q=viewer${run}&limit=5`).then((u) => u[0]!);
    await call(admin, 'POST', '/project/setuserproject', { id: project.id, userIds: [id] });
    await signIn(viewer.username, viewer.password);
  });

  it('shows the rows without any row action or bulk button', async () => {
    openList(project);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByTestId(`row-edit-${ids.alpha}`)).toBeNull();
    expect(screen.queryByTestId(`row-delete-${ids.alpha}`)).toBeNull();
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryByTestId('btn-bulk-delete')).toBeNull();
    expect(screen.queryByTestId('btn-import')).toBeNull();
  });
});

describe('DeviceTable, signed in without device:list', () => {
  beforeAll(async () => {
    const other = await userWith(admin, `noaccess${run}`, ['alarm:list']);
    await signIn(other.username, other.password);
  });

  it("shows the server's refusal as a message and an empty table", async () => {
    openList(project);
    expect(await screen.findByText('You do not have the permission device:list', {}, { timeout: 5_000 })).toBeTruthy();
    expect(rows()).toHaveLength(0);
  });
});
