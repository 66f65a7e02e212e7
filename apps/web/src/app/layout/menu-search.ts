import type { AppRoute, RouteTable } from '../route-table';

export interface SearchEntry {
  path: string;
  /** "Parent > Child" as shown in the list. */
  label: string;
  /** Lower-case texts the query is matched against (title, and pinyin when enabled). */
  haystack: string[];
}

/** Turns Chinese text into pinyin without tones; `initials` gives first letters only. */
export type PinyinFn = (text: string, initials: boolean) => string;

/** Every page the sidebar shows (menu pages, not group redirects), labelled with its parents. */
export function searchEntries(table: RouteTable, pinyin?: PinyinFn): SearchEntry[] {
  const visible = (r: AppRoute) => !r.hidden && r.kind !== 'redirect';
  return table.routes.filter(visible).map((route) => {
    const titles = [
      ...route.parents.map((p) => table.byPath.get(p)?.title ?? ''),
      route.title,
    ].filter(Boolean);
    const label = titles.join(' > ');
    const haystack = [label.toLowerCase(), route.path.toLowerCase()];
    if (pinyin) {
      for (const title of titles) {
        haystack.push(pinyin(title, false).toLowerCase(), pinyin(title, true).toLowerCase());
      }
    }
    return { path: route.path, label, haystack };
  });
}

/** Case-insensitive; spaces in the query are ignored for pinyin ("she bei" finds 设备). */
export function matchesQuery(entry: SearchEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return false;
  const compact = q.replace(/\s+/g, '');
  return entry.haystack.some((text) => text.includes(q) || text.includes(compact));
}
