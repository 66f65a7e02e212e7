import { useCallback, useEffect, useState } from 'react';
import { useSession } from './session';

/**
 * Which columns a user turned on or off in a table, column key → shown. Only the user's own
 * changes are kept, so a column added to a table later takes its default.
 *
 * Kept in localStorage per user and table: the server's per-user settings are typed profile fields
 * (language, dashboard style), not a store for arbitrary screen state, and a column choice is a
 * matter of the screen it was made on.
 */
export type ColumnChoice = Readonly<Record<string, boolean>>;

const storageKey = (userId: number | undefined, tableId: string) => `table-columns:${userId ?? 0}:${tableId}`;

function load(key: string): ColumnChoice {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as ColumnChoice;
  } catch {
    return {};
  }
}

/** The signed-in user's column choice for one table, and a setter that remembers it. */
export function useColumnChoice(tableId: string) {
  const userId = useSession().user?.id;
  const key = storageKey(userId, tableId);
  const [choice, setChoice] = useState<ColumnChoice>(() => load(key));
  useEffect(() => setChoice(load(key)), [key]);
  const save = useCallback(
    (next: ColumnChoice) => {
      setChoice(next);
      try {
        if (Object.keys(next).length === 0) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage unavailable: the choice holds until the page reloads.
      }
    },
    [key],
  );
  return [choice, save] as const;
}
