import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENDPOINTS, envelope } from '@iot/contract';
import { isCompiled, responseSerializerCompiler } from '../src/lib/serializer.js';

const item = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  state: z.union([z.literal(0), z.literal(1)]),
  info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
  tags: z.array(z.string()).nullable(),
  note: z.string().optional(),
});
const schema = envelope(z.object({ total: z.number().int(), items: z.array(item) }));

/** A server answering `answer` through a route whose answer schema is `schema`. */
async function serve(check: boolean, answer: unknown) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check }));
  app.get('/x', { schema: { response: { 200: schema } } }, async () => answer);
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return res;
}

const good = {
  code: 20000,
  message: 'ok',
  data: {
    total: 2,
    items: [
      { id: 1, name: 'a "quoted" \u2028 name', parentId: null, state: 0, info: null, tags: null },
      { id: 2, name: '電池', parentId: 1, state: 1, info: { fw: '1.2', rssi: -71, ok: true }, tags: ['x', 'y'], note: 'n' },
    ],
  },
};

describe('answers written by the serializer compiled from the contract', () => {
  it('writes what zod writes: nulls, records, lists, optional and escaped values', async () => {
    for (const check of [false, true]) {
      const res = await serve(check, good);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(good);
    }
  });

  it('never writes a property the contract does not name', async () => {
    const leaky = structuredClone(good) as typeof good & { data: { items: Array<Record<string, unknown>> } };
    leaky.data.items[0]!.passwordHash = 'secret';
    for (const check of [false, true]) {
      const res = await serve(check, leaky);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('passwordHash');
      expect(res.body).not.toContain('secret');
    }
  });

  it('fails an answer without a required property, checked or not', async () => {
    const missing = structuredClone(good) as { data: { items: Array<Record<string, unknown>> } };
    delete missing.data.items[1]!.name;
    for (const check of [false, true]) expect((await serve(check, missing)).statusCode).toBe(500);
  });

  it('with RESPONSE_CHECK an answer off its contract fails (unchecked it is written as the schema says)', async () => {
    const off = structuredClone(good) as { data: { items: Array<Record<string, unknown>> } };
    off.data.items[0]!.id = 1.5;
    off.data.items[1]!.name = 42;
    const checked = await serve(true, off);
    expect(checked.statusCode).toBe(500);
    expect(checked.body).not.toContain('1.5');
    const unchecked = await serve(false, off);
    expect(unchecked.statusCode).toBe(200);
    expect(unchecked.json().data.items.map((i: { id: number; name: unknown }) => [i.id, i.name])).toEqual([
      [1, good.data.items[0]!.name],
      [2, '42'],
    ]);
    // A value of a type list (nullable) that is none of its types fails even unchecked.
    off.data.items[1]!.parentId = '7';
    expect((await serve(false, off)).statusCode).toBe(500);
  });

  it('compiles every answer of the endpoint table (a schema it cannot write exactly falls back to zod)', () => {
    const byZod = ENDPOINTS.filter((ep) => ep.kind !== 'file' && !isCompiled(ep.kind === 'raw' ? ep.data : envelope(ep.data))).map(
      (ep) => `${ep.method} ${ep.path}`,
    );
    expect(byZod).toEqual([]);
    // A union of objects is written by zod, not guessed.
    expect(isCompiled(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]))).toBe(false);
    expect(isCompiled(z.object({ at: z.date() }))).toBe(false);
  });
});
