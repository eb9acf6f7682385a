// `hindsight token create|list|revoke`: the team tokens of a store. The token itself is printed
// once, as the last word of `create` (so scripts can take it with awk '{print $NF}'), and never stored.

import { HindsightError } from '../../core/errors.js';
import { openStore } from '../../store/open.js';
import { tokenStoreFor } from '../access/tokens/open-tokens.js';
import { TokenNotFound, type TokenRecord } from '../access/tokens/token-store.js';
import { painter } from './colour.js';
import { table } from './table.js';

export interface TokenCommandOptions {
  db?: string;
  user?: string;
  projects?: string;
  readOnly?: boolean;
  json?: boolean;
}

const USAGE =
  'token needs create, list or revoke: hindsight token create --user U --projects P1,P2 [--read-only] | hindsight token list [--json] | hindsight token revoke ID';

function say(stream: NodeJS.WriteStream, text: string): void {
  stream.write(`${text}\n`);
}

function usage(message: string): number {
  say(process.stderr, `hindsight: ${message}`);
  return 2;
}

/** `--projects a,b` as a list: trimmed, empty items dropped, duplicates once, order kept. */
export function parseProjects(value: string | undefined): string[] {
  return [...new Set((value ?? '').split(',').map((p) => p.trim()).filter((p) => p !== ''))];
}

function flags(t: TokenRecord): string {
  return [t.readOnly ? 'read-only' : 'read-write', t.revokedAt ? 'revoked' : 'active'].join(', ');
}

/** The JSON shape of a token in `token list --json` (snake_case, as the tools' envelopes). */
function tokenJson(t: TokenRecord): Record<string, unknown> {
  return { id: t.id, user: t.user, projects: t.projects, read_only: t.readOnly, created_at: t.createdAt, revoked_at: t.revokedAt, last_used_at: t.lastUsedAt };
}

function listText(tokens: TokenRecord[]): string {
  if (tokens.length === 0) return 'No tokens in this store. Create one with hindsight token create --user U --projects P1,P2.';
  // Projects last: the one column that can be long (Control Plane root paths), cut to the width.
  return table(
    ['ID', 'USER', 'FLAGS', 'CREATED', 'LAST USED', 'REVOKED', 'PROJECTS'].map((head) => ({ head })),
    tokens.map((t) => [t.id, t.user, flags(t), t.createdAt, t.lastUsedAt ?? '-', t.revokedAt ?? '-', t.projects.join(', ')]),
    painter(process.stdout, process.env, false),
  );
}

/**
 * Run `hindsight token SUB …`; returns the exit code (2 for a malformed command line, 1 for an
 * unknown id or a store that cannot be opened).
 *
 * @example process.exitCode = await runTokenCommand('create', [], { db: '/tmp/h.db', user: 'ana', projects: '-home-ana-app' });
 */
export async function runTokenCommand(sub: string | undefined, rest: string[], opts: TokenCommandOptions): Promise<number> {
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') return usage(USAGE);
  const projects = parseProjects(opts.projects);
  if (sub === 'create') {
    if (!opts.user?.trim()) return usage('token create needs --user U (who the token is for; it is shown in token list)');
    if (projects.length === 0) {
      return usage('token create needs --projects P1,P2: the projects the token may see, as list_sessions reports them (a Claude Code or Amplifier slug, a Control Plane root path)');
    }
  }
  if (sub === 'revoke' && !rest[0]) return usage('token revoke needs the token ID (see hindsight token list)');
  let store;
  try {
    store = await openStore({ db: opts.db });
  } catch (err) {
    if (err instanceof HindsightError) {
      say(process.stderr, `hindsight: ${err.message}`);
      return 1;
    }
    throw err;
  }
  try {
    const tokens = tokenStoreFor(store);
    if (sub === 'list') {
      const all = await tokens.list();
      say(process.stdout, opts.json ? JSON.stringify({ status: 'ok', db: store.location, tokens: all.map(tokenJson) }, null, 2) : listText(all));
      return 0;
    }
    if (sub === 'revoke') {
      const id = rest[0]!;
      const record = await tokens.revoke(id);
      if (!record) throw TokenNotFound(id);
      say(process.stdout, `Revoked token ${record.id} of ${record.user} (${record.revokedAt}): servers on ${store.location} refuse it from the next request.`);
      return 0;
    }
    const { token, record } = await tokens.create({ user: opts.user!.trim(), projects, readOnly: opts.readOnly ?? false });
    say(
      process.stdout,
      [
        `Created ${record.readOnly ? 'a read-only' : 'a'} token ${record.id} for ${record.user} in ${store.location}, seeing the projects: ${record.projects.join(', ')}.`,
        'It is shown only now (the store keeps its SHA-256 hash); send it as "Authorization: Bearer <token>", or open the viewer at /#token=<token>.',
        `Token: ${token}`,
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    if (err instanceof HindsightError) {
      say(process.stderr, `hindsight: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await store.close();
  }
}
