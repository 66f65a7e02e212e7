import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJsonStringify from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Answers are written by a serializer compiled from the route's contract schema
 * (fast-json-stringify), not by zod checking the answer and `JSON.stringify` writing it: for a
 * 20-device page that is 45 µs instead of 185 µs, a fifth of what a list costs the server
 * beyond a trivial route (bench/README.md). What the compiled writer keeps of the contract: only
 * the schema's properties are written (a column a handler forgets to leave out never leaks), a
 * missing required property fails the answer (500, logged), every value is written as its
 * schema's type.
 *
 * What it does not do is check: an integer that is not one is truncated, a number given as text
 * is written as a number, where zod refuses. So with `check` (RESPONSE_CHECK=on; every test and
 * the E2E server run with it) each answer is also checked and written by zod, and an answer the
 * two write differently fails like an answer zod refuses: a handler that breaks its contract
 * fails its tests, as it did when zod wrote every answer.
 *
 * A schema the compiled writer cannot write exactly is written by zod as before: anything
 * without a JSON Schema (a transform, a date), and unions other than a nullable or multi-type
 * value (fast-json-stringify picks a union's branch with a validator per value, slower than zod).
 */
export function responseSerializerCompiler(opts: { check: boolean }): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = zodSchemaOf(maybeSchema);
    // Compiled at a route's first answer, not at registration: a start compiled every route's
    // writer (0.4 s of CPU, most of them never used by an idle console; bench/README.md
    // "Production start").
    let write: ((data: unknown) => string) | undefined;
    return (data) => (write ??= writer(schema, method, url, opts.check))(data);
  };
}

function writer(schema: z.ZodType, method: string, url: string, check: boolean): (data: unknown) => string {
  const byZod = (data: unknown) => {
    const result = z.safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return result.data;
  };
  const compiled = compile(schema);
  if (!compiled) return (data) => JSON.stringify(byZod(data));
  if (!check) return compiled;
  return (data) => {
    const checked = byZod(data);
    const json = compiled(data);
    if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(checked)))) {
      throw new Error(`${method} ${url}: the compiled serializer wrote ${json.slice(0, 500)} where the contract's schema writes ${JSON.stringify(checked).slice(0, 500)}`);
    }
    return json;
  };
}

/** Whether `schema` is written by the compiled serializer (the rest by zod). */
export function isCompiled(schema: z.ZodType): boolean {
  return compile(schema) !== undefined;
}

function zodSchemaOf(maybeSchema: unknown): z.ZodType {
  if (maybeSchema instanceof z.ZodType) return maybeSchema;
  const properties = (maybeSchema as { properties?: unknown } | undefined)?.properties;
  if (properties instanceof z.ZodType) return properties;
  throw new Error(`Not a zod schema: ${JSON.stringify(maybeSchema)}`);
}

const compiledOf = new WeakMap<z.ZodType, ((data: unknown) => string) | null>();

function compile(schema: z.ZodType): ((data: unknown) => string) | undefined {
  let fn = compiledOf.get(schema);
  if (fn === undefined) {
    fn = null;
    try {
      const json = simplified(z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw', cycles: 'ref' }));
      if (writable(json)) fn = fastJsonStringify(json as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
    } catch {
      fn = null;
    }
    compiledOf.set(schema, fn);
  }
  return fn ?? undefined;
}

type Json = { [k: string]: unknown };

/** What only validates a value, never changes how it is written (fast-json-stringify does not validate). */
const CHECKS_ONLY = new Set([
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern',
  'format', 'minItems', 'maxItems', 'uniqueItems', 'enum', 'const', 'description', 'title', 'examples',
]);

/**
 * A union of plain values (zod's nullable: `anyOf: [{type: 'integer', minimum…}, {type: 'null'}]`;
 * literals `anyOf: [{const: 0}, {const: 1}]`) as a list of types, which fast-json-stringify writes by
 * `typeof` instead of validating each branch.
 */
function simplified(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplified);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplified(v);
  const branches = out.anyOf;
  if (!Array.isArray(branches)) return out;
  const types = (b: Json) => (Array.isArray(b.type) ? (b.type as string[]) : typeof b.type === 'string' ? [b.type] : undefined);
  const plain = (b: Json) =>
    types(b)?.every((t) => t !== 'object' && t !== 'array') === true && Object.keys(b).every((k) => k === 'type' || CHECKS_ONLY.has(k));
  if (branches.every(plain)) {
    delete out.anyOf;
    out.type = [...new Set(branches.flatMap((b: Json) => types(b)!))];
  } else if (branches.length === 2 && branches.some((b: Json) => b.type === 'null' && Object.keys(b).length === 1)) {
    // An object or a list, or null (zod's nullable): the one schema with null among its types.
    const value = branches.find((b: Json) => !(b.type === 'null' && Object.keys(b).length === 1)) as Json;
    if ((value.type === 'object' || value.type === 'array') && !('anyOf' in value)) {
      delete out.anyOf;
      Object.assign(out, value, { type: [value.type, 'null'] });
    }
  }
  return out;
}

/** No union left that fast-json-stringify would resolve by validating each value. */
function writable(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(writable);
  if (!node || typeof node !== 'object') return true;
  if ('anyOf' in node || 'oneOf' in node || 'allOf' in node || 'not' in node || 'if' in node) return false;
  return Object.values(node).every(writable);
}
