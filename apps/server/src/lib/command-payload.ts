import { commandPayloadSchema, isCommandKind } from '@iot/contract';
import { invalid } from './errors.js';

/**
 * A command as the device will receive it (packages/contract commands.ts, docs/PROTOCOL.md
 * "Command kinds"): an unknown kind, or a payload its kind's schema refuses, is the caller's
 * mistake, refused with the field at fault (`kind`, or the payload's part such as
 * `payload.radius`). Returns the payload as the schema reads it (trimmed texts).
 */
export function checkCommand(kind: string, payload: unknown): unknown {
  if (!isCommandKind(kind)) throw invalid('kind', 'invalidValue');
  const parsed = commandPayloadSchema(kind).safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // A field the kind does not have is named itself, not the object holding it.
  const extra = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  throw invalid(['payload', ...issue.path.map(String), ...extra].join('.'), 'invalidValue');
}
