// reconstruct_session's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/sessions/:id/timeline', summary: "A page of the session's merged timeline.", pathArgs: { id: 'session_id' } };
