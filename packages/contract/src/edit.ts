import { z } from 'zod';

/** A field schema without its `.default(…)`: what a sent value is checked against. */
type WithoutDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;
export type EditShape<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>> };

/**
 * The body of an edit route, derived from the create schema: edits change only the fields they
 * were sent. Every field becomes optional and keeps the validation it has on create, but loses its
 * default, so a field that is not sent stays absent (the stored value is kept) instead of turning
 * into the create default. A nullable field sent as `null` clears the stored value.
 *
 * Zod's own `.partial()` is not enough: in zod 4 an optional field with a default still produces
 * the default when absent, which is exactly the "an edit without contactNumber erases it" bug.
 * Add the `id` (and anything else an edit needs) with `.extend()`.
 */
export function editOf<S extends z.ZodRawShape>(create: z.ZodObject<S>): z.ZodObject<EditShape<S>> {
  const shape: Record<string, z.ZodOptional> = {};
  for (const [key, field] of Object.entries(create.shape)) {
    const sent = field instanceof z.ZodDefault ? field.unwrap() : field;
    shape[key] = z.optional(sent);
  }
  return z.object(shape) as unknown as z.ZodObject<EditShape<S>>;
}
