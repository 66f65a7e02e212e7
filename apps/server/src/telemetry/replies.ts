import type { RejectedValue, Reply } from '@iot/contract';
import type { UplinkOutcome } from './message.js';

/**
 * What the console answers on `dev/<sn>/reply` to one MQTT message (docs/PROTOCOL.md "Replies"):
 * the server's time for a `time` request, why a message was refused in whole or in part, or
 * nothing.
 */
export function replyTo(kind: string, topic: string, payload: Buffer | string, outcome: UplinkOutcome, now = Date.now()): Reply | undefined {
  if (outcome.rejected.length > 0) {
    return {
      kind: 'rejected',
      topic,
      problems: outcome.rejected.slice(0, 20).map(withoutValue),
    };
  }
  if (kind !== 'time') return undefined;
  return { kind: 'time', ...idOf(payload), serverTime: now };
}

/** A problem as the device is told it: everything but the value it sent. */
export function withoutValue({ value: _value, ...problem }: RejectedValue): Omit<RejectedValue, 'value'> {
  return problem;
}

/** The request's `id` (already checked by ingestion: a string of at most 64 characters). */
function idOf(payload: Buffer | string): { id?: string } {
  try {
    const id = (JSON.parse(payload.toString()) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? { id } : {};
  } catch {
    return {};
  }
}
