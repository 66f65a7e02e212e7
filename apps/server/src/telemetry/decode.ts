import { PROTOCOL_LIMITS, type IngestReason, type ParamDataType, type RejectedValue } from '@iot/contract';

/** A parameter definition of a device type, as ingestion checks values against it. */
export interface ParamDef {
  semaphoreId: string;
  dataType: ParamDataType | string;
  min: number | null;
  max: number | null;
  enumValues: unknown;
}

export type Value = number | string | boolean;

/** A number as text: optional sign, digits, optional fraction, optional exponent ("52.4", "-3", "1e3"). */
const DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** One value checked against its definition: the stored form, or why it is dropped. */
export function checkValue(def: ParamDef, raw: unknown): { value: Value } | { reason: IngestReason } {
  switch (def.dataType) {
    case 'number':
    case 'integer': {
      // Devices that send numbers as text ("52.1") are common; anything else is a wrong type.
      // Only plain decimal text: Number() would also take "0x10", " 12 ", "Infinity", "".
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return { reason: 'wrongType' };
      if (def.dataType === 'integer' && !Number.isInteger(n)) return { reason: 'wrongType' };
      if ((def.min !== null && n < def.min) || (def.max !== null && n > def.max)) return { reason: 'outOfRange' };
      return { value: n };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      if (raw === 0 || raw === 1) return { value: raw === 1 };
      return { reason: 'wrongType' };
    case 'enum': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return { reason: 'wrongType' };
      const options = Array.isArray(def.enumValues) ? (def.enumValues as { value?: unknown }[]) : [];
      const value = String(raw);
      return options.some((o) => String(o.value) === value) ? { value } : { reason: 'notInEnum' };
    }
    default:
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return { reason: 'wrongType' };
      return String(raw).length > PROTOCOL_LIMITS.textValue ? { reason: 'outOfRange' } : { value: String(raw) };
  }
}

/**
 * Checks every value of a telemetry message against the type's definitions: the accepted ones
 * are kept, each bad one is dropped alone with its reason.
 */
export function decodeValues(defs: ReadonlyMap<string, ParamDef>, values: Record<string, unknown>) {
  const accepted: Record<string, Value> = {};
  const rejected: RejectedValue[] = [];
  for (const [semaphoreId, raw] of Object.entries(values)) {
    const def = defs.get(semaphoreId);
    if (!def) {
      rejected.push({ reason: 'unknownParameter', semaphoreId, value: raw });
      continue;
    }
    const checked = checkValue(def, raw);
    if ('value' in checked) accepted[semaphoreId] = checked.value;
    else rejected.push({ reason: checked.reason, semaphoreId, value: raw });
  }
  return { accepted, rejected };
}

/**
 * The device's time of a message: epoch ms, epoch seconds (10 digits, §9) or ISO 8601; absent:
 * `now`. A time that cannot be read is `invalid` (refused as invalidMessage, field `ts`); one
 * outside [now − maxPastMs, now + maxFutureMs] is `outOfRange` (timeOutOfRange: a clock gone wrong
 * would otherwise write into days that no longer or do not yet exist).
 */
export function deviceTime(
  ts: number | string | undefined,
  now: number,
  window: { maxPastMs: number; maxFutureMs: number },
): Date | 'invalid' | 'outOfRange' {
  if (ts === undefined) return new Date(now);
  let ms: number;
  if (typeof ts === 'number') ms = ts < 1e11 ? ts * 1000 : ts;
  else if (/^\d{10}$/.test(ts)) ms = Number(ts) * 1000;
  else if (/^\d{13}$/.test(ts)) ms = Number(ts);
  else ms = Date.parse(ts);
  if (!Number.isFinite(ms)) return 'invalid';
  if (ms < now - window.maxPastMs || ms > now + window.maxFutureMs) return 'outOfRange';
  return new Date(ms);
}
