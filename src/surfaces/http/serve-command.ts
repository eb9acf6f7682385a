// `hindsight serve`: open the store, start the HTTP server, say where, and close both cleanly on
// SIGINT or SIGTERM. Returns the exit code (2 for a command line that cannot be served).

import { HindsightError } from '../../core/errors.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { tokenStoreFor } from '../access/tokens/open-tokens.js';
import { startHttpServer } from './server.js';
import { listenFailure, parsePort, TokenRequired, untilSignal } from '../server-process.js';

/** The port `hindsight serve` listens on unless told otherwise. */
export const DEFAULT_PORT = 7718;

export interface ServeOptions {
  db?: string;
  host?: string;
  port?: string;
  token?: string;
  root?: string;
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

/**
 * Run the server until a signal arrives.
 *
 * @example process.exitCode = await serveCommand({ db: '/tmp/h.db', port: '0' });
 */
export async function serveCommand(options: ServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const port = parsePort(options.port, DEFAULT_PORT);
  if (port === null) {
    say(`hindsight: --port must be a whole number from 0 to 65535 (0 picks any free port); got "${options.port}"`);
    return 2;
  }
  const token = options.token ?? (env.HINDSIGHT_TOKEN || undefined);
  let store: Store;
  try {
    store = await openStore({ db: options.db, env });
  } catch (err) {
    if (err instanceof HindsightError) {
      say(`hindsight: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const tokens = tokenStoreFor(store);
  const team = await tokens.anyTokens();
  let server;
  try {
    server = await startHttpServer({
      store,
      host: options.host,
      port,
      token,
      tokens,
      workspaceRoot: options.root ?? process.cwd(),
      logError: (err) => say(`hindsight serve: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    });
  } catch (err) {
    await store.close();
    if (err instanceof HindsightError && err.code === TokenRequired.code) {
      say(`hindsight: ${err.message}`);
      return 2;
    }
    const why = listenFailure(err, options.host ?? '127.0.0.1', port);
    if (why === null) throw err;
    say(`hindsight: ${why}`);
    return 1;
  }
  say(`Hindsight is serving ${store.location} at ${server.url}/`);
  if (team) say('This store has team tokens: every API request needs one (hindsight token list shows them), each seeing only its projects.');
  if (token || team) say(`API requests need "Authorization: Bearer <token>"; in a browser, open ${server.url}/#token=<token>.`);
  say('Press Ctrl-C to stop.');
  await untilSignal();
  await server.close();
  await store.close();
  say('Hindsight stopped serving.');
  return 0;
}
