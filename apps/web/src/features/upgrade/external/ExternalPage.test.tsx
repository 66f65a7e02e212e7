/**
 * The external devices' screen against the real server (apps/server/test/web-server.ts, which
 * holds one firmware version): a version assigned from the registry, the device's check-ins
 * moving its state and progress bar in the upgrades tab to the end, and a cancel after its
 * confirmation.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, apiBase, call, renderScreen, signIn, tokenOf } from '../../../test/server';
import ExternalPage from './ExternalPage';

const run = Date.now().toString(36).toUpperCase();
const versionId = inject('externalVersionId');
let admin: string;
const devices: Record<string, { id: number; identifier: string; secret: string }> = {};

/** A check-in as the device makes it (HTTP Basic with its identifier and credential). */
async function checkin(d: { identifier: string; secret: string }, body: object) {
  const res = await fetch(`${apiBase}/api/v1/hardware/checkin`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${d.identifier}:${d.secret}`)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(((await res.json()) as { code: number }).code).toBe(20000);
}

const rowOf = (tableId: string, identifier: string) =>
  Array.from(screen.getByTestId(tableId).querySelectorAll<HTMLTableRowElement>('tr.ant-table-row')).find((tr) => tr.textContent?.includes(identifier));

/** Shows the rows of this file's devices only. */
async function search(text: string) {
  const fields = await screen.findAllByLabelText('IMEI, serial or name');
  fireEvent.change(fields[0]!, { target: { value: text } });
  fireEvent.click(screen.getAllByTestId('filter-search')[0]!);
}

beforeAll(async () => {
  admin = await tokenOf(ADMIN.username, ADMIN.password);
  const added = await call<{ items: { id: number; identifier: string; secret: string }[] }>(admin, 'POST', '/hardware/addDevice', {
    devices: ['A', 'B'].map((k) => ({ identifier: `CTEXT-${run}-${k}`, model: 'CT' })),
  });
  devices.a = added.items[0]!;
  devices.b = added.items[1]!;
  await signIn(ADMIN.username, ADMIN.password);
});

describe('ExternalPage', () => {
  it('assigns a version from the registry, then follows the device’s progress to success in the upgrades tab', async () => {
    const a = devices.a!;
    await checkin(a, { version: '8.0.0' });
    renderScreen(<ExternalPage />, '/upgrade/external');
    await search(a.identifier);
    await waitFor(() => expect(rowOf('table-external', a.identifier)?.textContent).toContain('8.0.0'));
    expect(rowOf('table-external', a.identifier)?.textContent).toContain('Not assigned');

    fireEvent.click(screen.getByTestId(`external-assign-${a.identifier}`));
    const select = await screen.findByTestId('external-assign-version');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    const options = await screen.findAllByTitle('Component module · 9.0.0');
    fireEvent.click(options.find((o) => o.classList.contains('ant-select-item-option')) ?? options[0]!);
    fireEvent.click(screen.getByTestId('modal-ok'));
    await screen.findByText('Version assigned to 1 device');
    await waitFor(() => expect(rowOf('table-external', a.identifier)?.textContent).toContain('Assigned'));

    // The device reports its download at 40 %: the upgrades tab shows the state and the bar.
    await checkin(a, { version: '8.0.0', progress: 40 });
    fireEvent.click(screen.getByTestId('external-tab-upgrades'));
    await search(a.identifier);
    await waitFor(() => {
      const row = rowOf('table-external-upgrades', a.identifier);
      expect(row?.textContent).toContain('Downloading');
      expect(row?.textContent).toContain('40%');
      expect(row?.textContent).toContain('Component module');
    });

    // ok, then the new version at its next check-in: succeeded, seen at the list's next refresh.
    await checkin(a, { version: '8.0.0', progress: 100, result: 'ok' });
    await checkin(a, { version: '9.0.0' });
    await waitFor(() => expect(rowOf('table-external-upgrades', a.identifier)?.textContent).toContain('Succeeded'), { timeout: 8000 });
    // A finished bar: full and green.
    const bar = within(rowOf('table-external-upgrades', a.identifier)!).getByTestId(`external-progress-${a.identifier}`);
    expect(bar.className).toContain('ant-progress-status-success');
    // Its last step waits for the list's own refresh (up to 8 s) after two tabs of antd tables in
    // jsdom: 8 s alone, past 30 s once at load 11.
  }, 60_000);

  it('cancels an open upgrade after its confirmation', async () => {
    const b = devices.b!;
    await call(admin, 'POST', '/external/setupgrade', { ids: [b.id], versionId });
    renderScreen(<ExternalPage />, '/upgrade/external');
    fireEvent.click(await screen.findByTestId('external-tab-upgrades'));
    await search(b.identifier);
    await waitFor(() => expect(rowOf('table-external-upgrades', b.identifier)?.textContent).toContain('Assigned'));
    fireEvent.click(screen.getByTestId(`external-cancel-${b.identifier}`));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await screen.findByText('1 upgrade cancelled');
    await waitFor(() => expect(rowOf('table-external-upgrades', b.identifier)?.textContent).toContain('Cancelled'));
  });
});
