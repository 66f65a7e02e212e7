/**
 * A geo-fence set from the device details page reaches a simulated battery (the fleet
 * simulator's model, @iot/sim-model, polling over the HTTP uplink) and shows "issued
 * successfully", live: the form is prefilled with the device's position, the confirmation names
 * the device, the fence is drawn on the map in its state's colour and its history lists each
 * transition. The panel passes axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { BmuModel } from '@iot/sim-model';
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);

test('a fence set on the details page reaches a simulated device and shows issued successfully', async ({ page, session }) => {
  test.setTimeout(120_000);
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const sn = `FENCE-${run}`;
  const name = `Fenced pack ${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name, sn, typeId: bmu.id },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const { id, secret } = added.body.data;

  // The simulated battery: online, where it is, then polling for commands and answering them.
  const model = new BmuModel({ sn, now: Date.now(), faultsPerHour: 0 });
  const headers = { authorization: `Basic ${Buffer.from(`${sn}:${secret}`).toString('base64')}` };
  const post = async (kind: string, data: object) => {
    for (;;) {
      const body = (await (await page.request.post(`${MAIN_URL}/api/v1/ingest/${kind}`, { headers, data })).json()) as {
        code: number;
        data: { commands?: unknown[] };
      };
      if (body.code === 20000) return body.data;
      expect(body.code).toBe(42900);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await post('status', model.status(Date.now()));
  const fix = model.gps(Date.now());
  await post('gps', fix);
  let stop = false;
  const device = (async () => {
    while (!stop) {
      for (const cmd of (await post('status', { online: true })).commands ?? []) {
        const ack = model.command(cmd, Date.now());
        if (ack) await post('ack', ack);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  })();

  try {
    await page.goto(`/project/info?id=${id}`);
    await expect(page.getByTestId('device-title')).toHaveText(name);
    await page.getByRole('tab', { name: 'Geo-fences' }).click();
    const panel = page.getByTestId('fence-panel');
    await expect(panel.getByTestId('device-map')).toBeVisible();
    await expect(panel.getByTestId('fence-list')).toContainText('No geo-fences');

    // The centre starts at the device's position; the radius is typed (keyboard).
    await expect(page.getByLabel('Longitude')).toHaveValue(String(fix.lng));
    await expect(page.getByLabel('Latitude')).toHaveValue(String(fix.lat));
    const radius = page.getByLabel('Radius (m)');
    await radius.fill('');
    await radius.pressSequentially('300');
    await page.getByLabel('On leaving').click();
    await page.locator('.ant-select-dropdown:visible').getByText('Lock the battery', { exact: true }).click();
    await page.getByTestId('fence-send').click();

    // The confirmation names the device and what is sent.
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Send to ${name}?`);
    await expect(page.getByTestId('command-confirm-devices')).toHaveText(`${name} (${sn})`);
    await expect(page.getByTestId('command-confirm-changes')).toContainText('300 m');
    await expect(page.getByTestId('command-confirm-changes')).toContainText('Lock the battery');
    await page.getByTestId('command-confirm-ok').click();

    // The device takes it on its next poll and says ok: the state turns issued without a reload.
    const result = page.getByTestId('fence-result');
    await expect(result).toHaveAttribute('data-status', 'issued', { timeout: 20_000 });
    await expect(result).toContainText('Sent successfully');
    const state = panel.locator('[data-testid^="fence-state-"]');
    await expect(state).toHaveAttribute('data-state', 'issued');
    await expect(state).toHaveText('Issued successfully');
    expect(model.snapshot.fences).toEqual([expect.objectContaining({ lng: fix.lng, lat: fix.lat, radius: 300, action: 'lock', armed: true })]);
    // Drawn on the map (the new fence, and the draft of the form's next one).
    await expect(panel.locator('path.device-map-circle')).toHaveCount(2);
    // And on the details map beside the device's fields.
    await expect(page.getByTestId('device-map-slot').locator('path.device-map-circle')).toHaveCount(1);

    // Its history: set by admin, then issued.
    await panel.getByRole('button', { name: /expand row/i }).first().click();
    const history = panel.locator('[data-testid^="fence-history-"] tr.ant-table-row');
    await expect(history).toHaveCount(2);
    await expect(history.nth(0)).toContainText('Set (waiting for the device)');
    await expect(history.nth(1)).toContainText('Issued successfully');
    await expect(history.nth(1)).toContainText('admin');

    const { violations } = await new AxeBuilder({ page })
      .include('[data-testid="fence-panel"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  } finally {
    stop = true;
    await device;
  }
});
