/**
 * Video from a device's camera (issue #15, /getVideoH5Url): a device marked as having a camera
 * shows a Video button on its details page that opens the video provider's H5 player (the
 * built-in simulated provider here) in a new tab, naming the device; a device without a camera
 * has no button.
 */
import { callApi, expect, test } from './fixtures';

const run = Date.now().toString(36);

test('a camera device opens its live video in a new tab; a device without one has no video button', async ({ page, session }) => {
  test.setTimeout(120_000);
  const slow = { timeout: 30_000 };
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const add = async (suffix: string, camera: boolean) => {
    const res = await callApi<{ id: number }>(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name: `Cam ${suffix} ${run}`, sn: `CAM-${suffix}-${run}`, typeId, camera },
    });
    expect(res.body.code, res.body.message).toBe(20000);
    return { id: res.body.data.id, name: `Cam ${suffix} ${run}`, sn: `CAM-${suffix}-${run}` };
  };
  const plain = await add('none', false);
  const camera = await add('yes', true);

  await page.goto(`/project/info?id=${plain.id}`);
  await expect(page.getByTestId('device-title')).toHaveText(plain.name, slow);
  await expect(page.getByTestId('device-video')).toHaveCount(0);

  await page.goto(`/project/info?id=${camera.id}`);
  await expect(page.getByTestId('device-title')).toHaveText(camera.name, slow);
  const [player] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('device-video').click()]);
  await expect(player).toHaveURL(/\/sim-video\.html\?/, slow);
  await expect(player.getByTestId('sim-video')).toBeVisible();
  await expect(player.locator('#label')).toContainText(camera.sn);
  await player.close();
});
