// The registry's JSON Schemas, computed once per process: query conversion, the OpenAPI document
// and GET /api/tools all read them from here rather than converting zod on every request.

import { describeTools } from '../../tools/describe-tools.js';
import type { ObjectSchema } from './query-args.js';

export type ToolDescription = ReturnType<typeof describeTools>['tools'][number];

let cached: ReturnType<typeof describeTools> | undefined;

/**
 * describeTools(), once.
 *
 * @example toolDescriptions().tools.map((t) => t.tool_id)
 */
export function toolDescriptions(): ReturnType<typeof describeTools> {
  cached ??= describeTools();
  return cached;
}

/**
 * A tool's input schema as a plain object schema (for query conversion); {} for an unknown tool.
 *
 * @example inputSchema('list_sessions').properties?.limit // { type: 'integer', ... }
 */
export function inputSchema(name: string): ObjectSchema {
  const tool = toolDescriptions().tools.find((t) => t.tool_id === name);
  return (tool?.parameters ?? {}) as ObjectSchema;
}
