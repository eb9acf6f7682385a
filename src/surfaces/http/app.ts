// The HTTP API as a hono app: POST /api/tools/<name> for every registry tool, read-only GET views,
// the OpenAPI document, and the web viewer's files at /. Testable without a port (app.request).

import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import { HindsightError } from '../../core/errors.js';
import { formatLabels } from '../../formats/registry.js';
import type { Store } from '../../store/store.js';
import { findTool, TOOLS } from '../../tools/registry.js';
import type { AnyTool, ToolResult } from '../../tools/tool.js';
import { createAuthorizer } from '../access/authorize.js';
import { hostRefusal, loopbackHostCheck } from '../access/loopback.js';
import type { Principal } from '../access/principal.js';
import { runToolAs } from '../access/run-as.js';
import type { TokenStore } from '../access/tokens/token-store.js';
import { webAsset } from '../web/assets.js';
import { readJsonBody } from './body.js';
import { GET_ROUTES } from './conveniences.js';
import { buildOpenApi } from './openapi.js';
import { queryToArgs } from './query-args.js';
import { statusForCode } from './status-map.js';
import { inputSchema, toolDescriptions } from './tool-schemas.js';
import { turnTaker } from './turns.js';
import { programName } from '../../core/package-info.js';
import { AnswerCache, DEFAULT_MAX_BYTES, type KeptBody } from './answer-cache.js';
import { answerKey, keepsAnswers, matchesIfNoneMatch, serialise } from './kept-answers.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const LOCAL: Principal = { kind: 'local' };

/**
 * What the /api guard leaves for the routes: who the request acts for, and the store's data
 * version when the guard read it (so a kept answer does not read it twice).
 */
export type AppEnv = { Variables: { principal: Principal; dataVersion?: string } };

export interface HttpAppOptions {
  store: Store;
  /** When set, every /api request needs `Authorization: Bearer <token>`; this token sees everything. */
  token?: string;
  /** The store's team tokens: once any exists, every /api request needs one (or the admin token). */
  tokens?: TokenStore;
  /** Request bodies above this are refused with 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Root of the workspace file tools (default: the current directory). */
  workspaceRoot?: string;
  /** Which Host headers to serve (DNS-rebinding defence); default: loopback names on any port. */
  allowedHost?: (hostHeader: string) => boolean;
  /** Where unexpected exceptions are reported (their stack never reaches the client). */
  logError?: (err: unknown) => void;
  /** Bytes of serialised answers kept per store version (kept-answers.ts); 0 keeps none. Default 64 MiB. */
  keptAnswerBytes?: number;
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function fail(c: Context, code: string, error: string, headers: Record<string, string> = {}): Response {
  return c.json({ status: 'error', error, code }, statusForCode(code) as 400, headers);
}

function statusOf(result: ToolResult): number {
  return result.status === 'ok' ? 200 : statusForCode(result.code);
}

function answer(c: Context, result: ToolResult): Response {
  return c.json(result, statusOf(result) as 200);
}

/** A kept answer: its bytes with its ETag, or 304 when the client already holds them. */
function keptAnswer(c: Context, kept: KeptBody): Response {
  if (kept.etag === null) return c.body(kept.body, kept.status as 200, { 'Content-Type': 'application/json' });
  // RFC 9110 §13.1.2: a matching If-None-Match is 304 for GET and HEAD, 412 for any other method
  // (a POST tool call that names the copy it holds is told its precondition failed, not served).
  if (matchesIfNoneMatch(c.req.header('if-none-match'), kept.etag)) {
    return c.body(null, ['GET', 'HEAD'].includes(c.req.method) ? 304 : 412, { ETag: kept.etag });
  }
  return c.body(kept.body, kept.status as 200, { 'Content-Type': 'application/json', ETag: kept.etag });
}

function notAllowed(c: Context, allow: string): Response {
  return fail(c, 'METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}; use ${allow}.`, { Allow: allow });
}

function unknownTool(c: Context, name: string): Response {
  return fail(c, 'UNKNOWN_TOOL', `There is no tool "${name}". Known tools: ${TOOLS.map((t) => t.name).join(', ')} (GET /api/tools describes them).`);
}

/**
 * The hono app behind `hindsight serve`.
 *
 * @example
 * const app = createHttpApp({ store });
 * const res = await app.request('/api/tools/list_sessions', { method: 'POST', body: '{"limit":5}', headers: { 'content-type': 'application/json' } });
 */
export function createHttpApp(options: HttpAppOptions): Hono<AppEnv> {
  const { store, token, tokens, workspaceRoot } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowedHost = options.allowedHost ?? loopbackHostCheck(() => undefined);
  const authorize = createAuthorizer({ token, tokens });
  const take = turnTaker();
  const kept = new AnswerCache(options.keptAnswerBytes ?? DEFAULT_MAX_BYTES);
  const dataVersion = async () => (store.dataVersion ? store.dataVersion() : null);
  // The principal decides the store (a team token sees its projects) and the read-only rules.
  const run = async (principal: Principal, tool: AnyTool, args: unknown) => {
    await take();
    return runToolAs(principal, tool, args, { store, workspaceRoot });
  };
  const respond = async (c: Context<AppEnv>, tool: AnyTool, args: unknown): Promise<Response> => {
    const principal = c.get('principal');
    // Read before the tool runs: an answer is kept under a version no newer than its data.
    const version = keepsAnswers(tool) ? (c.get('dataVersion') ?? (await dataVersion())) : null;
    if (version === null) return answer(c, await run(principal, tool, args));
    // A repeat is a lookup: no turn to wait for, no tool run, no serialising.
    const body = await kept.get(answerKey(tool, principal, args), version, async () => {
      const result = await run(principal, tool, args);
      return serialise(result, statusOf(result));
    });
    return keptAnswer(c, body);
  };
  // Without an admin token, a request without a token is let in while the store holds no team
  // token, which the authorizer asks the store on every such request. Only a write can create a
  // token (from any process), so the answer is kept per data version: one version read instead
  // of the token table's queries, and the version serves the kept answer after it.
  let openAt: string | null = null;
  const access = async (c: Context<AppEnv>) => {
    const header = c.req.header('authorization');
    const version = header === undefined && token === undefined ? await dataVersion() : null;
    if (version !== null) c.set('dataVersion', version);
    if (version !== null && version === openAt) return { ok: true as const, principal: LOCAL };
    const decided = await authorize(header);
    if (version !== null && decided.ok && decided.principal.kind === 'local') openAt = version;
    return decided;
  };
  let openApi: ReturnType<typeof buildOpenApi> | undefined;
  const app = new Hono<AppEnv>();

  app.use('*', async (c: Context, next: Next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!allowedHost(host)) {
      c.res = fail(c, 'HOST_NOT_ALLOWED', hostRefusal(host));
    } else {
      await next();
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });

  app.use('/api/*', async (c: Context<AppEnv>, next: Next) => {
    // The token table lives in the store: a store that went away is its own answer (503), not a bug.
    const decided = await access(c).catch((err: unknown) => {
      if (err instanceof HindsightError) return err;
      throw err;
    });
    if (decided instanceof HindsightError) {
      c.res = fail(c, decided.code, decided.message);
    } else if (!decided.ok) {
      c.res = fail(c, 'UNAUTHORIZED', decided.message, { 'WWW-Authenticate': `Bearer realm="${programName()}"` });
    } else if (!['GET', 'HEAD'].includes(c.req.method) && !sameOrigin(c)) {
      c.res = fail(
        c,
        'CROSS_ORIGIN',
        `Requests from ${c.req.header('origin')} are refused: this API does not serve other origins. Call it from the viewer it serves, or from a program (which sends no Origin header).`,
      );
    } else {
      c.set('principal', decided.principal);
      await next();
    }
    c.res.headers.set('Cache-Control', 'no-store');
  });

  app.post('/api/tools/:name', async (c) => {
    const name = c.req.param('name');
    const tool = findTool(name);
    if (!tool) return unknownTool(c, name);
    const body = await readJsonBody(c.req.raw, maxBodyBytes);
    if (!body.ok) return fail(c, body.code, body.error);
    return respond(c, tool, body.args);
  });
  app.all('/api/tools/:name', (c) => (findTool(c.req.param('name')) ? notAllowed(c, 'POST') : unknownTool(c, c.req.param('name'))));

  app.get('/api/tools', (c) => c.json(toolDescriptions()));
  app.all('/api/tools', (c) => notAllowed(c, 'GET'));
  // The formats this build reads, for the viewer's format filters (so they never list ids of their own).
  app.get('/api/formats', async (c) => c.json({ status: 'ok', formats: await formatLabels() }));
  app.all('/api/formats', (c) => notAllowed(c, 'GET'));
  app.get('/api/openapi.json', (c) => c.json((openApi ??= buildOpenApi({ tokenRequired: token !== undefined || tokens !== undefined }))));
  app.all('/api/openapi.json', (c) => notAllowed(c, 'GET'));

  for (const route of GET_ROUTES) {
    const tool = findTool(route.tool);
    // GET must be safe to repeat and prefetch: a tool that can change files is POST-only.
    if (!tool || tool.destructive) continue;
    app.get(route.path, async (c) => {
      const args = queryToArgs(new URL(c.req.url).searchParams, inputSchema(route.tool), route.aliases);
      for (const [param, arg] of Object.entries(route.pathArgs)) args[arg] = c.req.param(param);
      return respond(c, tool, args);
    });
    app.all(route.path, (c) => notAllowed(c, 'GET'));
  }

  app.all('/api', (c) => fail(c, 'NOT_FOUND', notFoundSentence(c.req.path)));
  app.all('/api/*', (c) => fail(c, 'NOT_FOUND', notFoundSentence(c.req.path)));

  app.get('*', (c) => {
    const asset = webAsset(c.req.path);
    if (!asset) return c.text('Not found', 404);
    return c.body(new Uint8Array(asset.body), 200, { 'Content-Type': asset.contentType });
  });
  app.all('*', (c) => c.text(`${c.req.method} is not allowed here; the viewer's files are read with GET.`, 405, { Allow: 'GET, HEAD' }));

  app.onError((err, c) => {
    options.logError?.(err);
    const res = fail(
      c,
      'INTERNAL',
      `Internal error while answering ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.message : String(err)}. This is a bug in Hindsight; please report it with the request that caused it.`,
    );
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.headers.set(name, value);
    if (c.req.path.startsWith('/api')) res.headers.set('Cache-Control', 'no-store');
    return res;
  });

  return app;
}

function notFoundSentence(path: string): string {
  return `There is no API route ${path}. POST /api/tools/<name> runs a tool; GET /api/openapi.json lists every route.`;
}

/** A browser always sends Origin on a cross-site POST; programs send none. */
function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === (c.req.header('host') ?? new URL(c.req.url).host);
  } catch {
    return false;
  }
}
