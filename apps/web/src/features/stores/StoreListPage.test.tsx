/**
 * The store list as an agent sees it, against the real server (apps/server/test/web-server.ts):
 * a store's stock counted by state from live data (a pack reporting its SOC over the HTTP uplink
 * is available, a silent one offline), the stock drawer, adding a store through the form, and a
 * reader without store:edit offered no change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, apiBase, call, renderScreen, signIn, tokenOf, userWith } from '../../test/server';
import StoreListPage from './StoreListPage';

const run = Date.now().toString(36).toUpperCase();
const code = `ST${run}`;
let admin: string;
const sns = { live: `SL${run}A`, silent: `SL${run}B` };

const table = () => screen.getByTestId('table-stores');
const rows = () => Array.from(table().querySelectorAll<HTMLTableRowElement>('tr.ant-table-row'));

async function search(text: string) {
  fireEvent.change(await screen.findByLabelText('Name, code, address or phone'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('filter-search'));
}

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  const storeId = (await call(admin, 'POST', '/store/add', { name: `Harbour ${run}`, code, minSoc: 80 })).id;
  const typeId = (await call<{ id: number; code: string }[]>(admin, 'GET', '/devicetype/typeoptionslist')).find((x) => x.code === 'BMU')!.id;
  for (const sn of Object.values(sns)) {
    const d = await call<{ id: number; secret: string }>(admin, 'POST', '/device/add', { name: sn, sn, typeId });
    await call(admin, 'POST', '/store/stockdevices', { storeId, deviceIds: [d.id] });
    if (sn === sns.live) {
      const res = await fetch(`${apiBase}/api/v1/ingest/telemetry`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${sn}:${d.secret}`)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ts: Date.now() - 1_000, values: { '02109001': 95 } }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(20000);
    }
  }
});

describe('StoreListPage, signed in as the administrator', () => {
  beforeAll(() => signIn(ADMIN.username, ADMIN.password));

  it('shows the stock by state and the store’s packs', async () => {
    renderScreen(<StoreListPage />);
    await search(code);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await waitFor(() => expect(within(rows()[0]!).getByTestId('stock-available').textContent).toBe('Available 1'));
    expect(within(rows()[0]!).getByTestId('stock-offline').textContent).toBe('Offline 1');
    expect(within(rows()[0]!).getByText('Open')).toBeTruthy();
    fireEvent.click(screen.getByTestId(`store-open-${code}`));
    const drawer = await screen.findByTestId('stock-drawer');
    await waitFor(() => expect(within(drawer).getByText(sns.live)).toBeTruthy());
    expect(within(drawer).getByText(sns.silent)).toBeTruthy();
    expect(within(drawer).getByText('95%')).toBeTruthy();
  });

  it('adds a store through the form', async () => {
    renderScreen(<StoreListPage />);
    fireEvent.click(await screen.findByTestId('btn-add'));
    fireEvent.change(await screen.findByTestId('store-name'), { target: { value: `Airport ${run}` } });
    fireEvent.change(screen.getByTestId('store-code'), { target: { value: `AP${run}` } });
    fireEvent.click(screen.getByTestId('modal-ok'));
    expect(await screen.findByText('Created successfully')).toBeTruthy();
    await search(`AP${run}`);
    await waitFor(() => expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining(`Airport ${run}`)]));
  });
});

describe('StoreListPage, signed in with store:list only', () => {
  beforeAll(async () => {
    const reader = await userWith(admin, `storereader${run}`.toLowerCase(), ['store:list']);
    await signIn(reader.username, reader.password);
  });

  it('offers no add, edit or delete', async () => {
    renderScreen(<StoreListPage />);
    await screen.findByTestId('table-stores');
    expect(screen.queryByTestId('btn-add')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
  });
});
