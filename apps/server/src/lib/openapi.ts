import type { SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document's components: every contract schema named with `.meta({ id })` (recursive
 * trees must be, or their `$ref` points nowhere; shared DTOs are, so generated clients get one
 * type for them). The zod type provider emits each named schema twice (`X` for responses,
 * `XInput` for requests); only those the routes reference, directly or through another
 * component, are kept.
 */
export const openapiTransformObject: SwaggerTransformObject = (document) => {
  const doc = jsonSchemaTransformObject(document) as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = doc.components?.schemas;
  if (!schemas) return doc as ReturnType<SwaggerTransformObject>;

  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF)) {
        const name = value.slice(REF.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(doc.paths);
  doc.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return doc as ReturnType<SwaggerTransformObject>;
};

const REF = '#/components/schemas/';
