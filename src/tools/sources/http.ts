// sources's GET view in the HTTP API (path and query string as its arguments).

import type { HttpView } from '../tool.js';

export const http: HttpView = { path: '/api/sources', summary: 'What was ingested and every finding about the input.' };
