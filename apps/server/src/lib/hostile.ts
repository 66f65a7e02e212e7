/** Input PostgreSQL cannot store: NUL bytes (text and jsonb refuse \u0000) and absurd nesting. */

const NUL = '\u0000';
/** Deeper than any body the API takes; deeper input is refused rather than walked. */
const MAX_DEPTH = 64;

/** A field path for messages and `data.field`, with any NUL of a key made visible. */
export function fieldOf(path: (string | number)[]): string {
  return path.map((p) => String(p).replaceAll(NUL, '\\0')).join('.');
}

/**
 * The path of the first string (value or key) holding a NUL byte, or of a structure nested
 * deeper than MAX_DEPTH. Iterative, so hostile nesting cannot overflow the stack.
 */
export function findHostile(value: unknown): { path: (string | number)[]; problem: 'nul' | 'depth' } | undefined {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { path, problem: 'nul' };
      continue;
    }
    if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (path.length >= MAX_DEPTH) return { path, problem: 'depth' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
      continue;
    }
    for (const [k, child] of Object.entries(v)) {
      if (k.includes(NUL)) return { path: [...path, k], problem: 'nul' };
      stack.push({ v: child, path: [...path, k] });
    }
  }
  return undefined;
}
