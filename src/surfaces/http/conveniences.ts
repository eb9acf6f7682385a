// The read-only GET routes: each is a registry tool's own GET view (the `http` of its definition,
// src/tools/<tool>/http.ts) with path parameters and query-string arguments, nothing more. Tools
// that change anything (rewind_session) are reachable by POST only.

import { TOOLS } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/tool.js';

export interface GetRoute {
  /** A hono path, e.g. '/api/sessions/:id'. */
  path: string;
  tool: string;
  summary: string;
  /** Path parameter → tool argument. */
  pathArgs: Readonly<Record<string, string>>;
  /** Short query names → tool argument. */
  aliases: Readonly<Record<string, string>>;
}

/** The GET routes of `tools`, in their order; a destructive tool never has one (GET must be safe to repeat). */
export function getRoutes(tools: readonly AnyTool[]): GetRoute[] {
  return tools.flatMap((t) => {
    if (!t.http) return [];
    if (t.destructive) throw new Error(`${t.name} can change files, so it cannot have a GET view (${t.http.path}); POST only`);
    return [{ path: t.http.path, tool: t.name, summary: t.http.summary, pathArgs: t.http.pathArgs ?? {}, aliases: t.http.aliases ?? {} }];
  });
}

export const GET_ROUTES: readonly GetRoute[] = getRoutes(TOOLS);

/**
 * A hono path as an OpenAPI path.
 *
 * @example openApiPath('/api/sessions/:id') // '/api/sessions/{id}'
 */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}
