import { createStore, useStore } from './store';

/** A visited view in the tags bar: its route path and the exact URL last seen there. */
export interface VisitedTag {
  path: string;
  fullPath: string;
}

const STORAGE_KEY = 'tags-view';

function load(): VisitedTag[] {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(parsed)
      ? parsed.filter(
          (t): t is VisitedTag =>
            typeof t?.path === 'string' && typeof t?.fullPath === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

const store = createStore<VisitedTag[]>(load());

function save(tags: VisitedTag[]): void {
  store.set(tags);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(tags));
  } catch {
    // Storage unavailable: tabs still work until the page reloads.
  }
}

export function useVisitedTags(): VisitedTag[] {
  return useStore(store);
}

/** Adds a view, or updates its URL (query string) when it is already open. */
export function visitTag(tag: VisitedTag): void {
  const tags = store.get();
  const index = tags.findIndex((t) => t.path === tag.path);
  if (index === -1) save([...tags, tag]);
  else if (tags[index]?.fullPath !== tag.fullPath) {
    save(tags.map((t, i) => (i === index ? tag : t)));
  }
}

export function closeTag(path: string): void {
  save(store.get().filter((t) => t.path !== path));
}

/** Keeps `path` and the pinned (affix) views. */
export function closeOtherTags(path: string, affix: readonly string[]): void {
  save(store.get().filter((t) => t.path === path || affix.includes(t.path)));
}

export function closeAllTags(affix: readonly string[]): void {
  save(store.get().filter((t) => affix.includes(t.path)));
}

/** Drops views whose routes no longer exist (menus changed). */
export function pruneTags(exists: (path: string) => boolean): void {
  const tags = store.get();
  const kept = tags.filter((t) => exists(t.path));
  if (kept.length !== tags.length) save(kept);
}

export function clearTags(): void {
  save([]);
}
