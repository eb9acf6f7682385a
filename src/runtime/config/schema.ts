// The shape of $XDG_CONFIG_HOME/hindsight/config.json, checked with zod. Unknown fields are
// refused: a misspelt setting that silently does nothing is worse than an error naming it.

import { z } from 'zod';

import { LOG_LEVELS, type LogLevel } from '../logging/levels.js';

export { LOG_LEVELS, type LogLevel };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The settings one provider takes; also what `providers.<id>` may override. */
export const PROVIDER_FIELDS = {
  model: z.string().min(1),
  baseUrl: z.string().url(),
  apiKey: z.string().min(1),
  apiKeyEnv: z.string().regex(ENV_NAME, 'must be an environment variable name'),
  headers: z.record(z.string()),
  parser: z.string().min(1),
  local: z.boolean(),
  stream: z.boolean(),
  timeoutMs: z.number().int().positive(),
  maxRetries: z.number().int().min(0).max(10),
};

export const ProviderOverridesSchema = z.object(PROVIDER_FIELDS).partial().strict();
export type ProviderOverrides = z.infer<typeof ProviderOverridesSchema>;

/**
 * The tools an agent may dispatch: a list of names, or the document `hindsight tools --json`
 * prints ({tools: [{tool_id, …}]}), so a user can save that output and trim it.
 */
const ToolsAllowedSchema = z.union([
  z.array(z.string().min(1)),
  z.object({ tools: z.array(z.object({ tool_id: z.string().min(1) }).passthrough()) }).transform((doc) => doc.tools.map((t) => t.tool_id)),
]);

export const ConfigFileSchema = z
  .object({
    provider: z.string().min(1),
    ...PROVIDER_FIELDS,
    budgetUsd: z.number().positive(),
    maxSteps: z.number().int().positive(),
    logLevel: z.enum(LOG_LEVELS),
    toolsAllowed: ToolsAllowedSchema,
    providers: z.record(ProviderOverridesSchema),
  })
  .partial()
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** A config that cannot be used: says which file (or flag, or env var) and which field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** zod's first complaint as "<where>: "<field>" <what is wrong>". */
export function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
    return `${where}: unknown field ${issue.keys.map((k) => `"${prefix}${k}"`).join(', ')} (check the spelling)`;
  }
  const field = issue.path.join('.') || '(top level)';
  return `${where}: "${field}" ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
}
