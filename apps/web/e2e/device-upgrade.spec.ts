/**
 * Device upgrades (issue #36): a version, simulated devices that answer over HTTP ingest
 * (docs/PROTOCOL.md, firmwareUpgrade), a campaign started from the page after its check, its
 * bars moving to done while the devices report, the details kept across a reload, and another
 * campaign cancelled, one selected device first. The form and the details pass axe.
 */
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { callApi, expect, MAIN_URL, pickOption, test } from './fixtures';

const run = Date.now().toString(36);
const slow = { timeout: 30_000 };

interface Command {
  id: string;
  kind: string;
  payload: { versionId?: number; softwareVersion?: string };
}

/** A simulated device speaking HTTP ingest with its Basic SN:secret. */
class Device {
  constructor(
    private readonly request: APIRequestContext,
    readonly id: number,
    readonly sn: string,
    readonly name: string,
    private readonly auth: string,
  ) {}

  private async post(kind: string, data: unknown) {
    const res = await this.request.post(`${MAIN_URL}/api/v1/ingest/${kind}`, { headers: { authorization: this.auth }, data });
    const body = (await res.json()) as { code: number; message: string; data: { commands?: Command[] } };
    expect(body.code, `${this.sn} ${kind}: ${body.message}`).toBe(20000);
    return body.data;
  }

  /** A status uplink: online with the firmware it runs; the answer carries the commands waiting for it. */
  status(firmware: string) {
    return this.post('status', { online: true, info: { firmware } });
  }

  ack(id: string, result: 'progress' | 'ok' | 'error', progress?: number, message?: string) {
    return this.post('ack', { id, result, ...(progress !== undefined ? { progress } : {}), ...(message ? { message } : {}) });
  }

}

/**
 * Polls the devices (status uplinks, each in turn) until the console sends one of them a command
 * of this kind: that device and its command.
 */
async function firstCommand(devices: Device[], kind: string, firmware: string): Promise<{ device: Device; command: Command }> {
  let found: { device: Device; command: Command } | undefined;
  await expect
    .poll(
      async () => {
        for (const device of devices) {
          const command = (await device.status(firmware)).commands?.find((c) => c.kind === kind);
          if (command) {
            found = { device, command };
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  return found!;
}

async function addDevices(page: Page, token: string, typeId: number, prefix: string, n: number): Promise<Device[]> {
  const devices: Device[] = [];
  for (let i = 0; i < n; i++) {
    const sn = `UPG-${prefix}${i}-${run}`;
    const name = `Upgrade ${prefix}${i} ${run}`;
    const r = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', { token, data: { name, sn, typeId } });
    expect(r.body.code, r.body.message).toBe(20000);
    const device = new Device(page.request, r.body.data.id, sn, name, `Basic ${Buffer.from(`${sn}:${r.body.data.secret}`).toString('base64')}`);
    await device.status('1.0.0');
    devices.push(device);
  }
  return devices;
}

async function axe(page: Page, include: string) {
  const { violations } = await new AxeBuilder({ page })
    .include(include)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Picks devices in the form's device picker by their SN, typed into its search field (a click on
 * the picker's middle could land on a chosen device's remove button). Each search waits for its
 * one match: a click while the previous search's options are still shown could unchoose a device.
 */
async function pickDevices(page: Page, devices: Device[]) {
  const picker = page.getByTestId('campaign-devices');
  const options = page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true });
  for (const d of devices) {
    await picker.locator('input').click();
    await picker.locator('input').fill(d.sn);
    await expect(options).toHaveCount(1);
    await expect(options).toContainText(d.sn);
    await options.click();
    await expect(page.locator('.ant-select-dropdown .ant-select-item-option-selected').filter({ visible: true })).toContainText(d.sn);
  }
  await page.keyboard.press('Escape');
}

test('a campaign from the page: check, start, bars move to done as devices report; another one cancelled', async ({ page, session }) => {
  test.setTimeout(240_000);
  const token = session.token;
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;

  // The version, as the versions page would add it: an uploaded image for the battery type.
  const upload = await page.request.post(`${MAIN_URL}/api/v1/upgrade/upload`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: `bmu-2.0.0-${run}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096, 7) } },
  });
  const uploaded = (await upload.json()) as { code: number; message: string; data: { fileKey: string } };
  expect(uploaded.code, uploaded.message).toBe(20000);
  const versionName = `BMU main ${run}`;
  const version = await callApi<{ id: number }>(page.request, 'POST', '/upgrade/add', {
    token,
    data: { name: versionName, manufacturer: 'Acme', module: 'BMS', softwareVersion: '2.0.0', info: '', typeIds: [typeId], models: [], fileKey: uploaded.data.fileKey },
  });
  expect(version.body.code, version.body.message).toBe(20000);

  const [a, b] = await addDevices(page, token, typeId, 'a', 2);
  const cs = await addDevices(page, token, typeId, 'c', 2);

  // ── The first campaign, from the form: check, then start.
  await page.goto('/upgrade/device');
  await expect(page.getByTestId('campaign-list-page')).toBeVisible(slow);
  await page.getByTestId('btn-new-campaign').click();
  await expect(page.getByRole('dialog', { name: 'New upgrade' })).toBeVisible();
  await pickOption(page, page.getByTestId('campaign-version'), versionName, { search: run });
  await pickDevices(page, [a!, b!]);
  await page.getByRole('spinbutton', { name: 'Devices at once' }).fill('1');
  await page.getByTestId('campaign-check').click();
  await expect(page.getByTestId('campaign-plan')).toHaveText('2 devices will be upgraded; 0 not compatible; 0 busy with another upgrade; 0 already on this version');
  await axe(page, '.ant-modal');
  await page.getByTestId('campaign-start').click();

  // The details open, their campaign in the address.
  const drawer = page.getByTestId('campaign-drawer');
  await expect(drawer.getByTestId('campaign-summary')).toBeVisible(slow);
  await expect(page).toHaveURL(/[?&]campaign=\d+/);
  const campaignId = Number(new URL(page.url()).searchParams.get('campaign'));
  await expect(drawer.getByTestId('campaign-drawer-state')).toHaveText('Running');
  const rowA = drawer.getByTestId(`target-row-${a!.id}`);
  const rowB = drawer.getByTestId(`target-row-${b!.id}`);
  await expect(rowA).toBeVisible();
  await expect(rowB).toBeVisible();

  // Concurrency 1: one device at a time, in the campaign's order (not necessarily a before b).
  // Each downloads (its bar moves), installs, says ok and reports the new version; the page
  // follows without a reload.
  const waiting = [a!, b!];
  while (waiting.length > 0) {
    const { device: d, command: cmd } = await firstCommand(waiting, 'firmwareUpgrade', '1.0.0');
    waiting.splice(waiting.indexOf(d), 1);
    const row = drawer.getByTestId(`target-row-${d.id}`);
    expect(cmd.payload).toMatchObject({ versionId: version.body.data.id, softwareVersion: '2.0.0' });
    await d.ack(cmd.id, 'progress', 40);
    await expect(row.getByTestId(`target-state-${d.id}`)).toHaveText('Downloading', slow);
    await expect(row.getByTestId(`target-progress-${d.id}`)).toHaveAttribute('data-percent', '40', slow);
    await d.ack(cmd.id, 'progress', 100);
    await d.ack(cmd.id, 'ok');
    await d.status('2.0.0');
    await expect(row.getByTestId(`target-state-${d.id}`)).toHaveText('Succeeded', slow);
    await expect(row.getByTestId(`target-progress-${d.id}`)).toHaveAttribute('data-percent', '100');
  }
  await expect(drawer.getByTestId('campaign-drawer-state')).toHaveText('Finished', slow);
  await expect(drawer.getByTestId('campaign-drawer-progress')).toHaveAttribute('data-percent', '100');
  await expect(drawer.getByTestId('campaign-drawer-counts')).toContainText('Succeeded 2');

  // A device's steps, in its expandable row.
  await rowA.locator('.ant-table-row-expand-icon').click();
  const log = drawer.getByTestId(`target-log-${a!.id}`);
  await expect(log).toContainText('Downloading');
  await expect(log).toContainText('Succeeded');
  await axe(page, '.ant-drawer');

  // A reload keeps the details open.
  await page.reload();
  await expect(page.getByTestId('campaign-drawer').getByTestId('campaign-drawer-state')).toHaveText('Finished', slow);
  await page.getByTestId('campaign-drawer').locator('.ant-drawer-close').click();
  await expect(page).not.toHaveURL(/campaign=/);
  const listed = page.getByTestId(`campaign-row-${campaignId}`);
  await expect(listed.getByTestId(`campaign-state-${campaignId}`)).toHaveText('Finished');
  await expect(listed.getByTestId(`campaign-progress-${campaignId}`)).toHaveAttribute('data-percent', '100');

  // ── Devices already on the version: nothing to upgrade, the refusal says why in the form.
  await page.getByTestId('btn-new-campaign').click();
  await pickOption(page, page.getByTestId('campaign-version'), versionName, { search: run });
  await pickDevices(page, [a!, b!]);
  await page.getByTestId('campaign-start').click();
  await expect(page.getByTestId('campaign-failure')).toHaveText(
    'No device to upgrade: 0 not compatible with the version, 0 with an upgrade under way, 2 on this version already',
  );

  // ── The second campaign: by filter (the devices still on 1.0.0 of the type), then cancelled.
  await page.getByTestId('campaign-mode').getByText('By filter').click();
  await expect(page.getByTestId('campaign-failure')).toHaveCount(0);
  await pickOption(page, page.getByTestId('campaign-type'), '(BMU)');
  await page.getByTestId('campaign-current-version').fill('1.0.0');
  await page.getByTestId('campaign-check').click();
  // Devices of other specs may be on 1.0.0 too: at least our two, and a and b are on 2.0.0 now.
  await expect(page.getByTestId('campaign-plan')).toHaveAttribute('data-targets', /^([2-9]|\d\d+)$/);
  await page.getByTestId('campaign-start').click();
  await expect(drawer.getByTestId('campaign-drawer-state')).toHaveText('Running', slow);
  const second = Number(new URL(page.url()).searchParams.get('campaign'));
  expect(second).toBeGreaterThan(campaignId);

  // One selected device cancelled, with a confirmation.
  const [c0, c1] = cs as [Device, Device];
  await drawer.getByTestId('target-filter-q').fill(c0.sn);
  await drawer.getByTestId('target-filter-bar').getByRole('button', { name: 'Search' }).click();
  await expect(drawer.getByTestId(`target-row-${c1.id}`)).toHaveCount(0);
  await drawer.getByTestId(`target-row-${c0.id}`).getByRole('checkbox').check();
  await drawer.getByTestId('btn-cancel-selected').click();
  await page.getByTestId('confirm-ok').filter({ visible: true }).click();
  await expect(drawer.getByTestId(`target-state-${c0.id}`)).toHaveText('Cancelled', slow);

  // Then the whole campaign: whatever had not ended is cancelled.
  await drawer.getByTestId('target-filter-q').fill('');
  await drawer.getByTestId('target-filter-bar').getByRole('button', { name: 'Search' }).click();
  await drawer.getByTestId('btn-cancel-campaign').click();
  await page.getByTestId('confirm-ok').filter({ visible: true }).click();
  await expect(drawer.getByTestId('campaign-drawer-state')).toHaveText('Cancelled', slow);
  await expect(drawer.getByTestId(`target-state-${c1.id}`)).toHaveText('Cancelled', slow);
  await expect(drawer.getByTestId('btn-cancel-campaign')).toHaveCount(0);

  // The list filtered by state finds it.
  await page.getByTestId('campaign-drawer').locator('.ant-drawer-close').click();
  await pickOption(page, page.getByTestId('filter-state'), 'Cancelled');
  await page.getByTestId('filter-bar').getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId(`campaign-row-${second}`)).toBeVisible(slow);
  await expect(page.getByTestId(`campaign-row-${campaignId}`)).toHaveCount(0);
});
