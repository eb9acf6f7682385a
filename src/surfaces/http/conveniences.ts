// The read-only GET routes: each is a tool of the registry with path parameters and query-string
// arguments, nothing more. Tools that change anything (rewind_session) are reachable by POST only.

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

export const GET_ROUTES: readonly GetRoute[] = [
  { path: '/api/sessions', tool: 'list_sessions', summary: 'List sessions, newest first.', pathArgs: {}, aliases: {} },
  {
    path: '/api/sessions/:id',
    tool: 'session_overview',
    summary: 'What a session was about, with its diagnostics.',
    pathArgs: { id: 'session_id' },
    aliases: {},
  },
  {
    path: '/api/sessions/:id/timeline',
    tool: 'reconstruct_session',
    summary: "A page of the session's merged timeline.",
    pathArgs: { id: 'session_id' },
    aliases: {},
  },
  {
    path: '/api/sessions/:id/events',
    tool: 'get_events',
    summary: "The session's events by type, or errors only.",
    pathArgs: { id: 'session_id' },
    aliases: {},
  },
  { path: '/api/usage', tool: 'usage_report', summary: 'Tokens and cost by day, week, month, session or project.', pathArgs: {}, aliases: {} },
  { path: '/api/search', tool: 'search_sessions', summary: 'Full-text search over sessions (`q` is `query`).', pathArgs: {}, aliases: { q: 'query' } },
  { path: '/api/sources', tool: 'sources', summary: 'What was ingested and every finding about the input.', pathArgs: {}, aliases: {} },
];

/**
 * A hono path as an OpenAPI path.
 *
 * @example openApiPath('/api/sessions/:id') // '/api/sessions/{id}'
 */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}
