import { describe, expect, it } from 'vitest';
import { z } from './zod-inert';

/** The web bundle's zod stand-in: the contract's schema code runs, a parse fails loudly. */
describe('zod-inert', () => {
  it('lets schema-building code run and answers no fields', () => {
    const inert = z as any;
    const base = inert.object({ a: inert.string().min(1) }).extend({ b: inert.number().int().default(1) });
    const edited = inert.object({ ...base.shape, c: inert.enum(['x', 'y']).optional() }).superRefine(() => undefined).meta({ id: 'X' });
    expect(Object.entries(base.shape)).toEqual([]);
    expect(base instanceof inert.ZodDefault).toBe(false);
    expect(`${edited}`).toBe('');
  });

  it('refuses to parse: validation belongs to the server', () => {
    const schema = (z as any).object({});
    expect(() => schema.parse({})).toThrow(/types only in the web bundle/);
    expect(() => schema.safeParse({})).toThrow(/types only in the web bundle/);
  });
});
