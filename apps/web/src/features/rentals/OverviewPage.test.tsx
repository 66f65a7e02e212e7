/**
 * The agent view against the real server (apps/server/test/web-server.ts), as an agent with a
 * store of its own: its stores, stock and open rentals, and the revenue of a sale by day and month.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sent } from '../../test/setup';
import { ADMIN, call, renderScreen, signIn, tokenOf, userWith } from '../../test/server';
import OverviewPage from './OverviewPage';

const run = Date.now().toString(36).toUpperCase();

beforeAll(async () => {
  const admin = await tokenOf(ADMIN.username, ADMIN.password);
  const agent = await userWith(admin, `agent${run}`.toLowerCase(), ['rent:overview', 'rent:list', 'rent:edit', 'store:list', 'store:edit', 'device:add', 'device:list']);
  const token = await tokenOf(agent.username, agent.password);
  const storeId = (await call(token, 'POST', '/store/add', { name: `Agent shop ${run}`, code: `AG${run}` })).id;
  const typeId = (await call<{ id: number; code: string }[]>(token, 'GET', '/devicetype/typeoptionslist')).find((x) => x.code === 'BMU')!.id;
  const packs = [];
  for (const n of [1, 2]) {
    const id = (await call(token, 'POST', '/device/add', { name: `AG${run}${n}`, sn: `AG${run}${n}`, typeId })).id;
    await call(token, 'POST', '/store/stockdevices', { storeId, deviceIds: [id] });
    packs.push(id);
  }
  const customer = { customerName: 'Zhao Min', customerPhone: '13700000000' };
  await call(token, 'POST', '/rent/add', { storeId, deviceId: packs[0], ...customer, pricePerDayCents: 300, dueAt: new Date(Date.now() + 86_400_000).toISOString() });
  await call(token, 'POST', '/rent/add', { storeId, deviceId: packs[1], ...customer, kind: 'sale', totalPriceCents: 1234 });
  await signIn(agent.username, agent.password);
});

describe('OverviewPage, signed in as an agent', () => {
  it('shows its stores, stock, open rentals and the revenue per day and month', async () => {
    renderScreen(<OverviewPage />);
    const value = (testId: string) => within(screen.getByTestId(testId)).getByText(/^\d+$/).textContent;
    await waitFor(() => expect(value('figure-stores')).toBe('1'));
    expect(value('figure-active')).toBe('1');
    expect(value('figure-overdue')).toBe('0');
    expect(value('figure-stock-rented')).toBe('1');
    const revenue = await screen.findByTestId('table-revenue');
    expect(revenue.textContent).toContain('¥12.34');
    fireEvent.click(screen.getByText('Month'));
    await waitFor(() => expect(sent.some((u) => u.startsWith('/api/v1/rent/summary?') && u.includes('period=month'))).toBe(true));
    await waitFor(() => expect(screen.getByTestId('table-revenue').textContent).toContain('¥12.34'));
  });
});
