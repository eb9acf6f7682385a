// usage_report's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/usage', summary: 'Tokens and cost by day, week, month, session or project.' };
