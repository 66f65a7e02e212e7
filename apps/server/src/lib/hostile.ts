/**
 * Input PostgreSQL cannot store: NUL bytes (text and jsonb refuse \u0000), lone UTF-16 surrogates
 * (jsonb refuses the `\ud800` escape JSON.stringify writes for one, so one such string fails the
 * whole statement it is in) and absurd nesting.
 */

const NUL = '\u0000';
/** Deeper than any body the API takes; deeper input is refused rather than walked. */
const MAX_DEPTH = 64;

/** String methods of ES2024 that Node 20 has and the ES2023 lib the project compiles with does not declare. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** No lone surrogate: every UTF-16 surrogate is half of a pair. */
export function isWellFormed(s: string): boolean {
  return (s as unknown as WellFormedString).isWellFormed();
}

/** The string with each lone surrogate replaced by U+FFFD (what a UTF-8 encoder writes for one). */
export function wellFormed(s: string): string {
  const w = s as unknown as WellFormedString;
  return w.isWellFormed() ? s : w.toWellFormed();
}

/** A lone surrogate (with the `u` flag a pair is one code point, not matched). */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * A field path for messages and `data.field`, with any NUL or lone surrogate of a key made
 * visible (`\0`, `\ud800`): the path is stored in the device log, which cannot hold either.
 */
export function fieldOf(path: (string | number)[]): string {
  return path
    .map((p) => String(p).replaceAll(NUL, '\\0').replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`))
    .join('.');
}

export type HostileProblem = 'nul' | 'surrogate' | 'depth';

/** What is wrong with one string, if anything. */
function stringProblem(s: string): HostileProblem | undefined {
  if (s.includes(NUL)) return 'nul';
  if (!isWellFormed(s)) return 'surrogate';
  return undefined;
}

/**
 * The path of the first string (value or key) holding a NUL byte or a lone surrogate, or of a
 * structure nested deeper than MAX_DEPTH. Iterative, so hostile nesting cannot overflow the stack.
 */
export function findHostile(value: unknown): { path: (string | number)[]; problem: HostileProblem } | undefined {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return { path, problem };
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (path.length >= MAX_DEPTH) return { path, problem: 'depth' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
      continue;
    }
    for (const [k, child] of Object.entries(v)) {
      const problem = stringProblem(k);
      if (problem) return { path: [...path, k], problem };
      stack.push({ v: child, path: [...path, k] });
    }
  }
  return undefined;
}
