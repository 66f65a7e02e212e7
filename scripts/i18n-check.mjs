#!/usr/bin/env node
// Checks the web console's translations (apps/web/src/locales/<lang>/<namespace>.json):
// every language has every namespace and key, no value is empty, and every literal key used in
// apps/web/src (t('ns:key'), t("key"), i18nKey="…") exists in English, and every refusal reason of
// the API contract is translated with the same {{params}}. It also refuses untranslated words in
// code (literal aria-label, title, placeholder, alt), units written after values in code and
// "(s)" plurals. Exit 1 lists the problems.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const webSrc = join(root, 'apps/web/src');
const localesDir = join(webSrc, 'locales');
const DEFAULT_NS = 'common';
const REFERENCE = 'en';
// i18next plural forms: `key_one`/`key_other` stand for `key`, and languages differ in which they need.
const PLURAL = /_(zero|one|two|few|many|other)$/;

const problems = [];

/** Flattens nested objects into dotted paths → values. */
function flatten(obj, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, path, out);
    else out.set(path, v);
  }
  return out;
}

const isDir = (p) => statSync(p).isDirectory();
const languages = readdirSync(localesDir).filter((d) => isDir(join(localesDir, d))).sort();
if (!languages.includes(REFERENCE)) {
  console.error(`i18n-check: no ${REFERENCE} locale in ${relative(root, localesDir)}`);
  process.exit(1);
}

/** lang → ns → Map(key → value) */
const catalog = new Map();
const namespaces = new Set();
for (const lang of languages) {
  const byNs = new Map();
  for (const file of readdirSync(join(localesDir, lang)).filter((f) => f.endsWith('.json'))) {
    const ns = file.slice(0, -'.json'.length);
    namespaces.add(ns);
    const path = join(localesDir, lang, file);
    try {
      byNs.set(ns, flatten(JSON.parse(readFileSync(path, 'utf8'))));
    } catch (err) {
      problems.push(`${relative(root, path)}: invalid JSON (${err.message})`);
      byNs.set(ns, new Map());
    }
  }
  catalog.set(lang, byNs);
}

const baseKeys = (keys) => new Set([...keys].map((k) => k.replace(PLURAL, '')));

for (const ns of [...namespaces].sort()) {
  const present = languages.filter((lang) => catalog.get(lang).has(ns));
  for (const lang of languages) {
    if (!catalog.get(lang).has(ns)) problems.push(`${lang}/${ns}.json: namespace file missing`);
  }
  const allKeys = new Set();
  for (const lang of present) for (const k of baseKeys(catalog.get(lang).get(ns).keys())) allKeys.add(k);
  for (const lang of present) {
    const entries = catalog.get(lang).get(ns);
    const own = baseKeys(entries.keys());
    for (const key of [...allKeys].sort()) {
      if (!own.has(key)) {
        const holders = present.filter((l) => baseKeys(catalog.get(l).get(ns).keys()).has(key));
        problems.push(`${lang}/${ns}.json: missing "${key}" (present in ${holders.join(', ')})`);
      }
    }
    for (const [key, value] of entries) {
      if (typeof value !== 'string') problems.push(`${lang}/${ns}.json: "${key}" is not a string`);
      else if (!value.trim()) problems.push(`${lang}/${ns}.json: "${key}" is empty`);
    }
  }
}

/** Every .ts/.tsx file under apps/web/src, except tests and the locales themselves. */
function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (isDir(path)) {
      if (path !== localesDir && name !== 'node_modules') files.push(...sourceFiles(path));
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
  }
  return files;
}

const USAGE = [
  /(?<![\w$.])t\(\s*'([^'\\\n]+)'/g,
  /(?<![\w$.])t\(\s*"([^"\\\n]+)"/g,
  /i18nKey=["']([^"'\n]+)["']/g,
];
const english = catalog.get(REFERENCE);
const hasKey = (ns, key) => {
  const entries = english.get(ns);
  if (!entries) return false;
  if (entries.has(key)) return true;
  return [...entries.keys()].some((k) => k.replace(PLURAL, '') === key);
};
let usages = 0;
for (const file of sourceFiles(webSrc)) {
  const text = readFileSync(file, 'utf8');
  for (const pattern of USAGE) {
    for (const match of text.matchAll(pattern)) {
      usages++;
      const literal = match[1];
      const colon = literal.indexOf(':');
      const [ns, key] = colon > 0 ? [literal.slice(0, colon), literal.slice(colon + 1)] : [DEFAULT_NS, literal];
      if (!hasKey(ns, key)) {
        const line = text.slice(0, match.index).split('\n').length;
        problems.push(`${relative(root, file)}:${line}: "${literal}" is not in ${REFERENCE}/${ns}.json`);
      }
    }
  }
}

// Words the console writes itself must go through t() (issue 33: English names read out in every
// language, "0.00kWh", "alarm(s)"):
// - an accessible name, tooltip, placeholder or image text given as a literal with letters;
// - a unit written after a value in code (suffix="kWh", `${v} °C`): units come from the texts or
//   from lib/format's unit formatter, which spaces and orders them per language;
// - an English text that writes a plural as "(s)" instead of i18next's _one/_other forms.
const LITERAL_PROP = /(?<=\s)(aria-label|title|placeholder|alt)=(?:"([^"\n]*)"|\{\s*'([^'\n]*)'\s*\}|\{\s*`([^`$\n]*)`\s*\})/g;
const UNIT = String.raw`(?:kWh|Wh|kW|mAh|Ah|mV|mA|V|A|W|°C|℃|dBm)`;
// suffix="kWh", suffix={on ? 'V' : undefined}: a unit string anywhere in the prop.
const UNIT_PROP = new RegExp(String.raw`(?<=\s)(?:suffix|addonAfter)=(?:"\s*${UNIT}\s*"|\{[^}\n]*'\s*${UNIT}\s*'[^}\n]*\})`, 'g');
// `${v} °C`, `${v}kWh`: a template literal's value followed by a unit (nested ones too).
const UNIT_AFTER_VALUE = new RegExp(String.raw`\}\s?${UNIT}(?=[\s\`'")/,;]|$)`, 'gm');
for (const file of sourceFiles(webSrc)) {
  const text = readFileSync(file, 'utf8');
  const where = (index) => `${relative(root, file)}:${text.slice(0, index).split('\n').length}`;
  if (file.endsWith('.tsx')) {
    for (const m of text.matchAll(LITERAL_PROP)) {
      const value = m[2] ?? m[3] ?? m[4] ?? '';
      if (/\p{L}/u.test(value)) problems.push(`${where(m.index)}: ${m[1]}="${value}" is not translated (use t())`);
    }
    for (const m of text.matchAll(UNIT_PROP)) problems.push(`${where(m.index)}: hard-coded unit in ${m[0]} (use lib/format formatQuantity)`);
  }
  for (const m of text.matchAll(UNIT_AFTER_VALUE)) {
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index));
    // Only inside a template literal (a `${` on the line), not JSX text or code.
    if (line.includes('${') && !/^\s*(\/\/|\*)/.test(line)) {
      problems.push(`${where(m.index)}: hard-coded unit after a value: ${line.trim().slice(0, 80)} (use lib/format formatQuantity)`);
    }
  }
}
for (const [ns, entries] of english) {
  for (const [key, value] of entries) {
    if (typeof value === 'string' && /\w\(s\)/.test(value)) problems.push(`${REFERENCE}/${ns}.json: "${key}" writes a plural as "(s)": use ${key}_one/${key}_other`);
  }
}

// The server's refusal reasons (packages/contract/src/refusals.ts): each one is translated in
// every language as refusals:<reason>, and a translation keeps every {{param}} of the English
// template (the console fills them from the envelope's data.params).
const refusalsFile = join(root, 'packages/contract/src/refusals.ts');
const refusalTemplates = new Map(
  [...readFileSync(refusalsFile, 'utf8').matchAll(/^ {2}(\w+): '((?:[^'\\]|\\.)*)',$/gm)].map((m) => [m[1], m[2]]),
);
if (refusalTemplates.size === 0) problems.push(`${relative(root, refusalsFile)}: no refusal reasons found`);
const paramsOf = (text) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',');
for (const [reason, template] of refusalTemplates) {
  for (const lang of languages) {
    const value = catalog.get(lang).get('refusals')?.get(reason);
    if (typeof value !== 'string') problems.push(`${lang}/refusals.json: missing server reason "${reason}"`);
    else if (paramsOf(value) !== paramsOf(template)) {
      problems.push(`${lang}/refusals.json: "${reason}" must use {{${paramsOf(template) || '—'}}} like the contract`);
    }
  }
}

// The operation-log actions (packages/contract/src/audit.ts): each one is named in every language
// as logs:actions.<entity>.<verb>, so the log never shows a bare code for an action of ours.
const auditFile = join(root, 'packages/contract/src/audit.ts');
const auditActions = [...readFileSync(auditFile, 'utf8').matchAll(/^ {2}'([a-z]+\.[a-z]+)',$/gm)].map((m) => m[1]);
if (auditActions.length === 0) problems.push(`${relative(root, auditFile)}: no operation-log actions found`);
for (const action of auditActions) {
  for (const lang of languages) {
    if (typeof catalog.get(lang).get('logs')?.get(`actions.${action}`) !== 'string') {
      problems.push(`${lang}/logs.json: missing operation-log action "actions.${action}"`);
    }
  }
}

if (problems.length > 0) {
  console.error(`i18n-check: ${problems.length} problem(s)`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
const keyCount = [...english.values()].reduce((n, m) => n + m.size, 0);
console.log(
  `i18n-check: ok — ${languages.length} languages (${languages.join(', ')}), ${namespaces.size} namespaces, ` +
    `${keyCount} keys, ${usages} literal usages, ${refusalTemplates.size} server refusal reasons and ` +
    `${auditActions.length} operation-log actions checked`,
);
