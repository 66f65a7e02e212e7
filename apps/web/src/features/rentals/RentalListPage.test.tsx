/**
 * The rental list against the real server (apps/server/test/web-server.ts): a reserved rental
 * handed over after a confirmation, then returned through the return check dialog, its state
 * following in the list; amounts shown in the rental's currency.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, call, renderScreen, signIn, tokenOf } from '../../test/server';
import RentalListPage from './RentalListPage';

const run = Date.now().toString(36).toUpperCase();
const sn = `RL${run}`;
let rentalId: number;

const rows = () => Array.from(screen.getByTestId('table-rentals').querySelectorAll<HTMLTableRowElement>('tr.ant-table-row'));

beforeAll(async () => {
  const admin = await tokenOf(ADMIN.username, ADMIN.password);
  const storeId = (await call(admin, 'POST', '/store/add', { name: `Rent shop ${run}`, code: `RS${run}` })).id;
  const typeId = (await call<{ id: number; code: string }[]>(admin, 'GET', '/devicetype/typeoptionslist')).find((x) => x.code === 'BMU')!.id;
  const deviceId = (await call(admin, 'POST', '/device/add', { name: sn, sn, typeId })).id;
  await call(admin, 'POST', '/store/stockdevices', { storeId, deviceIds: [deviceId] });
  rentalId = (
    await call(admin, 'POST', '/rent/add', {
      storeId,
      deviceId,
      customerName: 'Wang Fang',
      customerPhone: '13912345678',
      idCard: '110101199001011234',
      currency: 'USD',
      depositCents: 5000,
      pricePerDayCents: 250,
      dueAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      reserve: true,
    })
  ).id;
  await signIn(ADMIN.username, ADMIN.password);
});

describe('RentalListPage, signed in as the administrator', () => {
  it('hands a reserved pack over, then returns it through the return check', async () => {
    renderScreen(<RentalListPage />);
    fireEvent.change(await screen.findByLabelText('Pack SN'), { target: { value: sn } });
    fireEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByTestId(`rental-state-${rentalId}`).textContent).toBe('Reserved');
    expect(rows()[0]!.textContent).toContain('Wang Fang · 13912345678');
    fireEvent.click(screen.getByTestId(`rental-activate-${rentalId}`));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId(`rental-state-${rentalId}`).textContent).toBe('Active'));
    fireEvent.click(screen.getByTestId(`rental-return-${rentalId}`));
    const dialog = await screen.findByTestId('return-check');
    await waitFor(() => expect(within(dialog).getByTestId('check-verdict').textContent).toContain('The pack passes'));
    expect(within(dialog).getByText('No active alarm')).toBeTruthy();
    fireEvent.click(within(document.body).getByTestId('return-confirm'));
    await waitFor(() => expect(screen.getByTestId(`rental-state-${rentalId}`).textContent).toBe('Returned'));
    expect(rows()[0]!.textContent).toContain('$2.50');
  });
});
