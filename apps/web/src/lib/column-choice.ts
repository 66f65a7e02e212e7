import { useCallback, useEffect, useRef, useState } from 'react';
import { userRoutes } from '@iot/contract/plain';
import { api } from './api';
import { useSession } from './session';

/**
 * Which columns a user turned on or off in a table, column key → shown. Only the user's own
 * changes are kept, so a column added to a table later takes its default.
 *
 * Kept on the server per user (`/user/preferences/table:<id>`), so it follows the user to another
 * browser, and in localStorage per user and table for the first paint: the stored copy shows at
 * once and the server's, when it answers, wins (unless the user changed the choice meanwhile).
 */
export type ColumnChoice = Readonly<Record<string, boolean>>;

const storageKey = (userId: number | undefined, tableId: string) => `table-columns:${userId ?? 0}:${tableId}`;
const preferenceKey = (tableId: string) => `table:${tableId}`;

function load(key: string): ColumnChoice {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as ColumnChoice;
  } catch {
    return {};
  }
}

function store(key: string, choice: ColumnChoice) {
  try {
    if (Object.keys(choice).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(choice));
  } catch {
    // Storage unavailable: the server's copy still holds it.
  }
}

/** Saves on the server; a failure leaves the local copy, which is sent again with the next change. */
function upload(tableId: string, choice: ColumnChoice) {
  api(userRoutes.setPreference, { params: { key: preferenceKey(tableId) }, body: { value: { ...choice } }, silent: true }).catch(
    () => undefined,
  );
}

/** The signed-in user's column choice for one table, and a setter that remembers it. */
export function useColumnChoice(tableId: string) {
  const userId = useSession().user?.id;
  const key = storageKey(userId, tableId);
  const [choice, setChoice] = useState<ColumnChoice>(() => load(key));
  /** The user changed the choice since the server was asked: its answer is older. */
  const changed = useRef(false);

  useEffect(() => {
    const local = load(key);
    setChoice(local);
    changed.current = false;
    if (userId === undefined) return;
    let current = true;
    api(userRoutes.preference, { params: { key: preferenceKey(tableId) }, silent: true })
      .then(({ value }) => {
        if (!current || changed.current) return;
        if (value) {
          setChoice(value);
          store(key, value);
        } else if (Object.keys(local).length > 0) {
          // Chosen in this browser before the server kept choices: keep it there from now on.
          upload(tableId, local);
        }
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [key, tableId, userId]);

  const save = useCallback(
    (next: ColumnChoice) => {
      changed.current = true;
      setChoice(next);
      store(key, next);
      if (userId !== undefined) upload(tableId, next);
    },
    [key, tableId, userId],
  );
  return [choice, save] as const;
}
