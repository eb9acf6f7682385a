// list_sessions's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/sessions', summary: 'List sessions, newest first.' };
