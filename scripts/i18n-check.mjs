#!/usr/bin/env node
// Checks the web console's translations (apps/web/src/locales/<lang>/<namespace>.json):
// every language has every namespace and key, no value is empty, and every literal key used in
// apps/web/src (t('ns:key'), t("key"), i18nKey="…") exists in English, and every refusal reason of
// the API contract is translated with the same {{params}}. Exit 1 lists the problems.
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
