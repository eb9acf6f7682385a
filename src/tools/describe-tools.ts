// The tools as JSON Schemas, converted from their zod definitions on demand. Apart from the
// registry because the converter is some forty modules: `hindsight tool`, `hindsight tools` (text)
// and the CLI's views never need it.

import { zodToJsonSchema } from 'zod-to-json-schema';
import { TOOLS } from './registry.js';

/** The `hindsight tools --json` shape (decisions.md): tool_id, description, parameters, output. */
export function describeTools() {
  return {
    tools: TOOLS.map((t) => ({
      tool_id: t.name,
      title: t.title,
      description: t.description,
      parameters: zodToJsonSchema(t.input, { target: 'jsonSchema7', $refStrategy: 'none' }),
      output: zodToJsonSchema(t.output, { target: 'jsonSchema7', $refStrategy: 'none' }),
    })),
  };
}
