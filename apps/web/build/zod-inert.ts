/**
 * What the web bundle gets for `zod` (vite.config.ts aliases it for `vite build` only).
 *
 * The web uses `@iot/contract` for its types, and at run time for the endpoints' method and path
 * and the contract's constants (limits, enums, refusal texts); it never validates with a schema:
 * the server does (every route parses its input from the same contract). Zod itself is ~25 KB of
 * gzipped JavaScript on every route, the login page included, for schemas nobody runs in the
 * browser. Here every schema builder (`z.object(…)`, `.extend(…)`, `.refine(…)`, …) returns one
 * inert value, so the contract's modules still evaluate; parsing with it throws, so a schema used
 * in the browser by mistake fails loudly in the E2E suite instead of passing bad data.
 */
const parsers = new Set(['parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'decode', 'encode', 'spa']);

function typesOnly(): never {
  throw new Error('zod schemas are types only in the web bundle; validation happens on the server (apps/web/build/zod-inert.ts)');
}

// An arrow function as the target: it has no non-configurable own `prototype`, so `ownKeys` may
// answer nothing (`{ ...schema.shape }` and `Object.entries(schema.shape)` see no fields).
const target = (() => undefined) as unknown as object;

const inert: unknown = new Proxy(target, {
  get(_t, prop) {
    if (prop === Symbol.hasInstance) return () => false;
    if (prop === Symbol.toPrimitive) return () => '';
    if (prop === 'then') return undefined; // not a promise
    if (typeof prop === 'string' && parsers.has(prop)) return typesOnly;
    return inert;
  },
  apply: () => inert,
  ownKeys: () => [],
  has: () => false,
});

export const z = inert;
export default inert;
