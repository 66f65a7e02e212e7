import { useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import i18n from './i18n';
import { feedbackMessage } from './feedback';
import { reloadMenus } from './session';

interface CrudOps<I> {
  create: (values: I) => Promise<unknown>;
  edit: (values: I & { id: number }) => Promise<unknown>;
  remove?: (id: number) => Promise<unknown>;
  /** After any change: the queries to refetch (the lists). */
  queryKey: QueryKey;
  /** The rows decide which menus the user sees (menus, permissions): the sidebar follows. */
  reloadsMenus?: boolean;
}

/**
 * The add/edit/delete wiring of a list page: whether the form is open and on which row, saving
 * with "Created"/"Updated" and deleting with "Deleted", then refetching `queryKey`. A refused save rejects
 * (the form shows the refusal, beside its field when the server names one); a refused delete is
 * reported by the http client.
 */
export function useCrud<T extends { id: number }, I>(ops: CrudOps<I>) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ row?: T } | null>(null);
  const row = editing?.row;
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: ops.queryKey });
    if (ops.reloadsMenus) void reloadMenus().catch(() => undefined);
  };
  return {
    open: editing !== null,
    /** The row being edited; undefined when adding. */
    row,
    add: () => setEditing({}),
    edit: (r: T) => setEditing({ row: r }),
    close: () => setEditing(null),
    save: async (values: I) => {
      if (row) {
        await ops.edit({ ...values, id: row.id });
        feedbackMessage().success(i18n.t('crud:updated'));
      } else {
        await ops.create(values);
        feedbackMessage().success(i18n.t('crud:created'));
      }
      setEditing(null);
      await changed();
    },
    remove: async (r: T) => {
      try {
        await ops.remove?.(r.id);
        feedbackMessage().success(i18n.t('crud:deleted'));
        await changed();
      } catch {
        // the server's refusal is shown by the http client
      }
    },
  };
}
