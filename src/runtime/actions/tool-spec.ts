// A handler's model-facing spec from its zod schema, converted as the registry's tools are
// (zod-to-json-schema, then tools/json-schema.ts's spelling), so the model sees one dialect.

import type { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { withoutDialect } from '../../tools/json-schema.js';
import type { ModelToolSpec } from '../model/chat.js';

/**
 * @example specOf('write', 'Write a file.', z.object({ path: z.string(), content: z.string() })).parameters.required // ['path', 'content']
 */
export function specOf(name: string, description: string, input: z.ZodTypeAny): ModelToolSpec {
  return { name, description, parameters: withoutDialect(zodToJsonSchema(input, { target: 'jsonSchema7', $refStrategy: 'none' }) as Record<string, unknown>) };
}

/** zod's issues as one sentence: "path: Required; limit: Number must be greater than 0". */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
}
