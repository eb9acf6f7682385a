// session_overview's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/sessions/:id', summary: 'What a session was about, with its diagnostics.', pathArgs: { id: 'session_id' } };
