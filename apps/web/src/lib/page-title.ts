import { useEffect } from 'react';
import { createStore, useStore } from './store';

/**
 * Titles a page gives its own tab in the tags view (e.g. the device details tab shows the
 * device's name), keyed by route path; the route's menu title is used when a page sets none.
 */
const titles = createStore<Readonly<Record<string, string>>>({});

/** Sets the tab title of `path` while the page is mounted with a known `title`. */
export function usePageTitle(path: string, title: string | undefined): void {
  useEffect(() => {
    if (!title) return undefined;
    titles.set((prev) => ({ ...prev, [path]: title }));
    return undefined;
  }, [path, title]);
}

export function usePageTitles(): Readonly<Record<string, string>> {
  return useStore(titles);
}
