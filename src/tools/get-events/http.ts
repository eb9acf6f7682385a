// get_events's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/sessions/:id/events', summary: "The session's events by type, or errors only.", pathArgs: { id: 'session_id' } };
