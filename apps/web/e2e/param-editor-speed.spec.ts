/**
 * The parameter editor (/device/setparam?id=) of a type with the most parameters a type may have
 * opens without freezing the tab: the time from the parameters' answer to the first row drawn, the
 * longest main-thread task while it opens and the main thread's CPU time in between are printed
 * (bench/README.md keeps the figures) and bounded.
 */
import { PARAM_LIMITS } from '@iot/contract/plain';
import type { Page } from '@playwright/test';
import { callApi, expect, test } from './fixtures';

/**
 * Main-thread CPU time (ms) between the parameters' answer and the first row, from a Chromium
 * trace: each user-timing mark carries the thread's own clock (`tts`), which, unlike wall time,
 * hardly grows when other processes share the machine's cores.
 */
function mainThreadCpu(trace: { traceEvents: TraceEvent[] }): number | null {
  const mark = (name: string) => trace.traceEvents.filter((e) => e.name === name && e.cat === 'blink.user_timing').at(-1);
  const from = mark('params-answer');
  const to = mark('param-row');
  if (from?.tts === undefined || to?.tts === undefined || from.tid !== to.tid) return null;
  return Math.round((to.tts - from.tts) / 1000);
}

interface TraceEvent {
  name: string;
  cat: string;
  tid: number;
  tts?: number;
}

/** What the page recorded: when the first row appeared and its long tasks (ms). */
interface Timing {
  rowAt: number | null;
  longTasks: number[];
}

/**
 * Opens the editor of a type and returns what the page recorded: the first row's time after the
 * parameters' answer and the longest main-thread task (ms), printed with `label`.
 */
async function openEditor(page: Page, typeId: number, label: string, rows: number) {
  // Long tasks and the first row's time, recorded by the page itself from its first script on.
  await page.addInitScript(() => {
    const w = window as unknown as { __timing: Timing };
    w.__timing = { rowAt: null, longTasks: [] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__timing.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
    // Marks for the trace: the parameters' answer and the first row.
    const fetch = window.fetch;
    window.fetch = async (...args) => {
      const res = await fetch(...args);
      if (String(args[0] instanceof Request ? args[0].url : args[0]).includes('/devicetype/setparam?')) performance.mark('params-answer');
      return res;
    };
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="param-row-0"]')) {
        performance.mark('param-row');
        w.__timing.rowAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['blink.user_timing'] });
  await page.goto(`/device/setparam?id=${typeId}`);
  // Long enough to measure the old editor, which mounted every row (seconds); the bounds judge.
  await expect(page.getByTestId('param-row-0')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('param-settings')).toContainText(`${rows}`);
  await page.waitForLoadState('networkidle');
  const cpu = mainThreadCpu(JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] });
  const timing = await page.evaluate(() => {
    const w = window as unknown as { __timing: Timing };
    const answer = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/v1/devicetype/setparam?'))
      .at(-1) as PerformanceResourceTiming | undefined;
    return { rowAt: w.__timing.rowAt, answeredAt: answer?.responseEnd ?? null, longTasks: w.__timing.longTasks };
  });
  expect(timing.rowAt).not.toBeNull();
  expect(timing.answeredAt).not.toBeNull();
  const render = Math.round(timing.rowAt! - timing.answeredAt!);
  const longest = Math.round(Math.max(0, ...timing.longTasks));
  console.log(
    `param editor, ${label}: first row ${render} ms after the answer; longest task ${longest} ms; main-thread CPU ${cpu ?? '?'} ms`,
  );
  return { render, longest, cpu };
}

/**
 * Bounds of a shared, loaded machine (2 cores, load average up to 20): wall times several times
 * an idle machine's, so 2.5 s, which still fails the editor that mounted every row (7 s for 39
 * rows, over a minute for 500 at load 19). The main thread's CPU time grows less with the load:
 * 141–225 ms measured for this editor at load 14–20 on one machine, 240–425 ms on another
 * (2026-11-27, quiet and in CI; as much for 39 rows as for 500, so not the rows: bench/README.md).
 * Bounded at 500 ms, which the editor that mounted every row fails many times over.
 */
function expectNoFreeze({ render, longest, cpu }: { render: number; longest: number; cpu: number | null }) {
  expect(render).toBeLessThan(2500);
  expect(longest).toBeLessThan(2500);
  expect(cpu, 'main-thread CPU time from the trace').not.toBeNull();
  expect(cpu!).toBeLessThan(500);
}

test('the built-in battery type’s parameter editor opens without freezing', async ({ page, session: _s }) => {
  expectNoFreeze(await openEditor(page, 1, 'built-in BMU (39 parameters)', 39));
});

test('the parameter editor of a type with 500 parameters opens without freezing', async ({ page, session }) => {
  test.setTimeout(120_000);
  const code = `SPEED-${Date.now().toString(36).toUpperCase()}`;
  const added = await callApi<{ id: number }>(page.request, 'POST', '/devicetype/addtype', {
    token: session.token,
    data: { code, name: `Many parameters ${code}` },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const typeId = added.body.data.id;
  const kinds = ['number', 'integer', 'boolean', 'enum', 'text'] as const;
  const params = Array.from({ length: PARAM_LIMITS.rows }, (_, i) => {
    const dataType = kinds[i % kinds.length]!;
    return {
      semaphoreId: `S${String(i).padStart(4, '0')}`,
      name: `参数 ${i}`,
      nameEn: `Parameter ${i}`,
      nameEs: `Parámetro ${i}`,
      nameJa: `パラメータ ${i}`,
      unit: dataType === 'number' ? 'V' : '',
      groupName: `group ${i % 7}`,
      dataType,
      precision: dataType === 'number' ? 2 : 0,
      min: dataType === 'number' || dataType === 'integer' ? 0 : null,
      max: dataType === 'number' || dataType === 'integer' ? 100 : null,
      enumValues:
        dataType === 'enum'
          ? [
              { value: '0', label: '关', labelEn: 'Off', labelEs: 'Apagado', labelJa: 'オフ' },
              { value: '1', label: '开', labelEn: 'On', labelEs: 'Encendido', labelJa: 'オン' },
            ]
          : [],
      writable: i % 3 === 0,
      sort: i + 1,
    };
  });
  const saved = await callApi(page.request, 'POST', '/devicetype/addsetparam', { token: session.token, data: { id: typeId, params } });
  expect(saved.body.code, saved.body.message).toBe(20000);

  expectNoFreeze(await openEditor(page, typeId, `${PARAM_LIMITS.rows} parameters`, PARAM_LIMITS.rows));

  // Every parameter is still there: the last page holds the last one.
  await page.getByTestId('param-settings').locator('.ant-pagination-item').last().click();
  await expect(page.getByTestId(`param-row-${PARAM_LIMITS.rows - 1}`)).toBeVisible();
  await expect(page.getByTestId(`param-row-${PARAM_LIMITS.rows - 1}`).getByTestId('field-semaphoreId')).toHaveValue(
    `S${String(PARAM_LIMITS.rows - 1).padStart(4, '0')}`,
  );
});
