import type { IngestReason } from '@iot/contract';
import { stripNul, stripNulDeep } from '../lib/sql.js';
import type { IngestDevice, LogRow } from './ingest.repo.js';

/**
 * A device log row. An unknown SN comes from the network (MQTT username, topic): cut to the
 * column's 64 characters so one long name cannot fail the whole batch. NUL bytes (a client id, a
 * topic) are dropped and lone surrogates replaced by U+FFFD: PostgreSQL cannot store them, and one
 * row must not fail the batch.
 */
export function logRow(
  device: Pick<IngestDevice, 'id' | 'ownerPath'> | undefined,
  sn: string,
  kind: LogRow['kind'],
  reason?: IngestReason,
  detail?: Record<string, unknown>,
): LogRow {
  return {
    deviceId: device?.id ?? null,
    // Cut first: a cut through a surrogate pair leaves half of it, which stripNul replaces.
    sn: stripNul(sn.slice(0, 64)),
    kind,
    reason,
    detail: detail && stripNulDeep(detail),
    ownerPath: device?.ownerPath ?? '',
  };
}
