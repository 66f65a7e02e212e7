/**
 * Accessibility (issue 16): every page the administrator can open passes axe-core's WCAG 2.1 A/AA
 * rules with no critical or serious violation. The pages come from the administrator's menu tree
 * (the API the sidebar is built from), so a new menu page is checked without touching this file;
 * a new hidden page needs its sample query in `hiddenQuery` (the test says so).
 *
 * Time: one axe run costs one to a few seconds a page on a loaded machine, whatever the rules, so
 * the passes differ in which pages they visit:
 * - /login: every rule, in every language;
 * - every page: every rule, in English and the default theme colour, at desktop and at phone
 *   width (390×844: the sidebar drawer, wrapped tabs, the scrolling login table);
 * - Chinese, Spanish and Japanese, in the other theme colour: the rules that depend on the words
 *   (names, labels, language) and on the colour, on the pages with the most labels of their own
 *   (LABEL_PAGES) in each language, and every other page in one of the three in turn; so every
 *   page is checked in the other theme colour too. The pages of the "not available yet" notice
 *   count as one there.
 * The theme colour's contrast for every preset is also a unit test (app/settings.test.ts).
 */
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page } from '@playwright/test';
import type { Language, MenuNode } from '@iot/contract';
import { buildMenuRoutes } from '../src/lib/menu-routes';
import { callApi, expect, LANGUAGE_COOKIE, MAIN_URL, test, type Envelope } from './fixtures';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Rules whose result changes with the theme colour. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
/** Rules whose result changes with the UI language (accessible names, labels, the page's lang). */
const WORDING_RULES = [
  'label',
  'label-content-name-mismatch',
  'button-name',
  'link-name',
  'input-button-name',
  'select-name',
  'aria-input-field-name',
  'aria-toggle-field-name',
  'aria-command-name',
  'aria-tooltip-name',
  'aria-progressbar-name',
  'aria-meter-name',
  'aria-dialog-name',
  'empty-heading',
  'empty-table-header',
  'document-title',
  'html-has-lang',
  'html-lang-valid',
  'valid-lang',
  'image-alt',
  'svg-img-alt',
  'frame-title',
  'landmark-unique',
  'page-has-heading-one',
];
/** A preset of the settings panel other than the default (#409EFF): the lightest, cyan. */
const OTHER_THEME = '#13C2C2';
const OTHER_LANGUAGES: Language[] = ['zh', 'es', 'ja'];
/** A phone (issue 33): the frame switches to its mobile layout below 992 px. */
const PHONE = { width: 390, height: 844 };
/**
 * Pages checked in every language: the shell, filter bars, bulk actions, device details and the
 * alarm rule table, where most of the console's own labels and names are.
 */
const LABEL_PAGES = ['/dashboard', '/device/list', '/sys/user', '/project/alarminfo', '/device/setalarm', '/project/info'];

interface Sample {
  typeId: number;
  projectId: number;
  deviceId: number;
}

/** Query strings that give the hidden pages (opened from another page) something to show. */
function hiddenQuery(path: string, s: Sample): string | undefined {
  const queries: Record<string, string> = {
    '/profile': '',
    // The home dashboard's hidden menu row carries its permission (home:view; issue 34).
    '/dashboard': '',
    '/device/addtype': '',
    '/device/edittype': `?id=${s.typeId}`,
    '/device/setparam': `?id=${s.typeId}`,
    '/device/setalarm': `?id=${s.typeId}`,
    '/project/details': `?id=${s.projectId}`,
    '/project/userProjectList': `?id=${s.projectId}`,
    '/project/info': `?id=${s.deviceId}`,
    '/project/alarminfo': '',
    '/card/orderManagement': '',
    '/upgrade/version': '',
  };
  return queries[path];
}

const run = Date.now().toString(36);
let sample: Sample | undefined;

/** One project with one device of the built-in battery type, made once per worker. */
async function makeSample(page: Page, token: string): Promise<Sample> {
  if (sample) return sample;
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const project = await callApi<{ id: number }>(page.request, 'POST', '/project/addproject', {
    token,
    data: { name: `A11y site ${run}` },
  });
  expect(project.body.code, project.body.message).toBe(20000);
  const device = await callApi<{ id: number }>(page.request, 'POST', '/device/add', {
    token,
    // Placed on the map, so the fleet map (/project/map) is checked with a marker on it.
    data: { name: `A11y pack ${run}`, sn: `A11Y-${run}`, typeId, projectId: project.body.data.id, mapMode: 1, lng: 114.06, lat: 22.54 },
  });
  expect(device.body.code, device.body.message).toBe(20000);
  sample = { typeId, projectId: project.body.data.id, deviceId: device.body.data.id };
  return sample;
}

/** Every page of the administrator's menu tree (with the hidden ones' sample queries). */
async function pagesToVisit(page: Page, token: string): Promise<string[]> {
  const s = await makeSample(page, token);
  const res = await page.request.get(`${MAIN_URL}/api/v1/user/menutestlist`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const menus = ((await res.json()) as Envelope<MenuNode[]>).data;
  const urls = ['/dashboard', '/profile', '/404-not-a-page'];
  const missing: string[] = [];
  for (const route of buildMenuRoutes(menus, 'en')) {
    if (route.kind !== 'page') continue;
    if (!route.hidden) urls.push(route.path);
    else {
      const query = hiddenQuery(route.path, s);
      if (query === undefined) missing.push(route.path);
      else urls.push(route.path + query);
    }
  }
  expect(missing, 'hidden pages without a sample query in accessibility.spec.ts (hiddenQuery)').toEqual([]);
  return [...new Set(urls)];
}

/** Client-side navigation (as the sidebar does), then waits for the page's data. */
async function visit(page: Page, url: string) {
  await page.evaluate((u) => {
    window.history.pushState({}, '', u);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await settle(page);
}

/** Waits for the page's data; every page has exactly one h1 (axe only flags a missing one). */
async function settle(page: Page) {
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active, .page-spin')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('h1'), 'one h1 per page').toHaveCount(1);
}

type Finding = string;

/**
 * axe-core's source, evaluated only when the page has no axe yet: the pages are visited by
 * client-side navigation, so one copy serves them all.
 */
const AXE_ONCE = `if (!window.axe) { ${axe.source} }`;

async function audit(page: Page, where: string, rules?: string[]): Promise<Finding[]> {
  // Legacy mode runs axe.run in the page itself (no blank page per call for axe.finishRun); only
  // the violations are wanted, which spares collecting every passing node.
  let builder = new AxeBuilder({ page, axeSource: AXE_ONCE }).setLegacyMode().options({ resultTypes: ['violations'] });
  builder = rules ? builder.withRules(rules) : builder.withTags(WCAG_TAGS);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) =>
      v.nodes.map((n) => `${where}  ${v.id} (${v.impact})  ${n.target.join(' ')}  ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    );
}

function report(findings: Finding[]) {
  if (findings.length) console.log(findings.join('\n'));
  expect(findings, 'critical or serious axe-core violations (page  rule  target)').toEqual([]);
}

/** Pages that showed the "not available yet" notice (one of them stands for all in later passes). */
const notice = new Set<string>();

/** Visits `urls` in the page's current language and theme colour and collects the violations. */
async function auditPages(page: Page, label: string, urls: string[], rules?: string[]): Promise<Finding[]> {
  const started = Date.now();
  await page.goto('/dashboard');
  await settle(page);
  const findings: Finding[] = [];
  for (const url of urls) {
    await test.step(`${label} ${url}`, async () => {
      await visit(page, url);
      if (await page.getByTestId('not-available').count()) notice.add(url);
      findings.push(...(await audit(page, `${label} ${url}`, rules)));
    });
  }
  console.log(`accessibility: ${label}, ${urls.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return findings;
}

/** `urls` without the notice pages but the first. */
function oneNotice(urls: string[]): string[] {
  const first = urls.find((u) => notice.has(u));
  return urls.filter((u) => !notice.has(u) || u === first);
}

test.describe('accessibility (axe-core, WCAG 2.1 A/AA)', () => {
  test('the login page in every language', async ({ page, context }) => {
    const findings: Finding[] = [];
    for (const lang of ['en', ...OTHER_LANGUAGES]) {
      await context.addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: MAIN_URL }]);
      await page.goto('/login');
      await expect(page.getByTestId('login-form')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      findings.push(...(await audit(page, `${lang} /login`)));
    }
    report(findings);
  });

  test('every page, default language and theme colour', async ({ page, session }) => {
    test.setTimeout(180_000);
    report(await auditPages(page, 'en', await pagesToVisit(page, session.token)));
  });

  test('every page at phone width (390×844), default language', async ({ page, session }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(PHONE);
    const urls = await pagesToVisit(page, session.token);
    const findings = await auditPages(page, 'phone', urls);
    // The frame is the phone's: the sidebar is a drawer.
    await expect(page.getByTestId('layout')).toHaveAttribute('data-mobile', 'true');
    report(findings);
  });

  test(`theme colour ${OTHER_THEME} in ${OTHER_LANGUAGES.join(', ')}: the label pages in each, every other page in one`, async ({
    page,
    context,
    session,
  }) => {
    test.setTimeout(240_000);
    const urls = oneNotice(await pagesToVisit(page, session.token));
    const isLabelPage = (url: string) => LABEL_PAGES.some((p) => url === p || url.startsWith(`${p}?`));
    const rest = urls.filter((u) => !isLabelPage(u));
    await page.addInitScript((color) => {
      localStorage.setItem('console-settings', JSON.stringify({ themeColor: color }));
    }, OTHER_THEME);
    const findings: Finding[] = [];
    for (const [i, lang] of OTHER_LANGUAGES.entries()) {
      await context.addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: MAIN_URL }]);
      const share = rest.filter((_, k) => k % OTHER_LANGUAGES.length === i);
      const pages = [...urls.filter(isLabelPage), ...share];
      findings.push(...(await auditPages(page, `${lang} ${OTHER_THEME}`, pages, [...WORDING_RULES, ...COLOUR_RULES])));
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
    }
    report(findings);
  });
});
