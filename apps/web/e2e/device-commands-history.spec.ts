/**
 * A battery that went silent three days ago: its history opens on its last day of data (not an
 * empty last 24 hours), voltage and current on axes of their own; setting its charge
 * switch shows the value it last reported and asks before anything is sent.
 */
import type { APIRequestContext } from '@playwright/test';
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);
const PACK_VOLTAGE = '01111001';
const CURRENT = '01112001';
const CHARGE = '10000030';
const HOUR = 3_600_000;

/** Messages through the device's HTTP uplink with past device times (paced: retried on 42900). */
async function uplink(request: APIRequestContext, d: { sn: string; secret: string }, messages: { ts: number; values: object }[]) {
  const headers = { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` };
  for (const data of messages) {
    for (;;) {
      const code = (await (await request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, { headers, data })).json()).code as number;
      if (code === 20000) break;
      expect(code).toBe(42900);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

test('a device silent for three days: history on its last day, one axis per unit, a confirmed write', async ({ page, session }) => {
  test.setTimeout(120_000);
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const sn = `HIST-${run}`;
  const name = `Silent pack ${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name, sn, typeId: bmu.id },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const { id, secret } = added.body.data;
  // Two hours of messages, ending three days ago; the charge switch was last reported on.
  const stopped = Date.now() - 3 * 24 * HOUR;
  await uplink(
    page.request,
    { sn, secret },
    Array.from({ length: 12 }, (_, i) => ({
      ts: stopped - 2 * HOUR + i * 10 * 60_000,
      values: { [PACK_VOLTAGE]: 52 + (i % 3), [CURRENT]: i % 2 ? -12.5 : 8, [CHARGE]: true },
    })),
  );

  await page.goto(`/project/info?id=${id}`);
  await expect(page.getByTestId('device-title')).toHaveText(name);

  // History: the range is the device's last day of data, its first message on.
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('preset-custom')).toBeChecked();
  const chart = page.getByTestId('history-chart');
  await expect(chart).toHaveAttribute('data-loading', 'false');
  // The default series, pack voltage and current, both have points, each on an axis of its unit.
  await expect(chart).toHaveAttribute('data-points', /^[1-9]\d*,[1-9]\d*$/);
  await expect(chart).toHaveAttribute('data-axes', 'V,A');
  await expect(page.getByTestId('history-table').locator('tr.ant-table-row')).toHaveCount(12);

  // Set parameters: the switch's reported value beside it; sending asks first.
  await page.getByRole('tab', { name: 'Set parameters' }).click();
  await expect(page.getByTestId(`current-${CHARGE}`)).toHaveText('Now: On');
  const form = page.getByTestId('set-params-form');
  await form.getByRole('combobox').first().click();
  await page.locator('.ant-select-dropdown:visible').getByText('Off', { exact: true }).click();
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/device/setparams')) sent.push(r.url());
  });
  await page.getByTestId('set-params-send').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Send to ${name}?`);
  await expect(page.getByTestId('command-confirm-devices')).toHaveText(`${name} (${sn})`);
  const change = page.getByTestId('command-confirm-changes').locator('tr.ant-table-row');
  await expect(change).toHaveCount(1);
  await expect(change.locator('td')).toHaveText(['Charge switch', 'On', 'Off']);

  // Cancelled: the dialog closes and the command history stays empty.
  await page.getByTestId('command-confirm-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('command-history')).toContainText('No data');
  expect(sent).toEqual([]);

  // Confirmed: the command is created (the HTTP device never fetches it: it stays waiting).
  await page.getByTestId('set-params-send').click();
  await page.getByTestId('command-confirm-ok').click();
  await expect(page.getByTestId('set-params-result')).toHaveAttribute('data-status', /^(pending|sent|offline)$/);
  await expect(page.getByTestId('command-history').locator('tr.ant-table-row').first()).toContainText('Charge switch = Off');
  expect(sent).toHaveLength(1);
});
