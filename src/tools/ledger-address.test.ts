import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HindsightError } from '../core/errors.js';
import { copyFixture, tempDir } from '../../test/helpers.js';
import { cp, writePlaneRoot } from '../../test/plane-root.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { resolveLedger, resolvePlaneRoot, type LedgerAddressArgs } from './ledger-address.js';

const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

let store: SqliteStore;
let plane: string;

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof HindsightError) return `${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
};
const resolveGov = (args: LedgerAddressArgs) => resolveLedger(store, args, { defaultLedger: 'governance' });

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  plane = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.exchange('SES-A', 'WO-SES-A-001', { input: 10, output: 5 }, 1),
    cp.sessionStart('SES-B', 2),
    cp.llmCall('SES-B', 'WO-SES-B-001', 1, 1, 3),
  ]);
  await ingestPaths(store, [plane, copyFixture('claude-code')]);
});

describe('resolveLedger (Control Plane)', () => {
  it('defaults to governance of the only plane root and lists the valid ledgers', async () => {
    const sel = await resolveGov({});
    expect(sel).toMatchObject({ format: 'control-plane', root: plane, ledger: 'governance', ledgers: ['governance', 'ho2m', 'ho1m'], entrySessionId: null });
    expect(sel.files.map((f) => f.file)).toEqual(['HOT/ledger/governance.jsonl']);
    expect(sel.fileIds).toEqual(sel.files.map((f) => f.fileId));
    expect((await resolveGov({ ledger: 'ho1m' })).files.map((f) => f.file)).toEqual(['HO1/ledger/ho1m.jsonl']);
  });

  it('names the valid ledgers for an unknown one', async () => {
    expect(await code(resolveGov({ ledger: 'bogus' }))).toBe('UNKNOWN_LEDGER: Unknown ledger: bogus. Valid: governance, ho2m, ho1m.');
  });

  it("limits a Control Plane session to its own entries in its plane root's ledger (main ledger ho2m when asked)", async () => {
    const sel = await resolveLedger(store, { session_id: 'SES-B' }, { defaultLedger: 'main' });
    expect(sel).toMatchObject({ root: plane, ledger: 'ho2m', entrySessionId: 'SES-B' });
    expect((await resolveGov({ session_id: 'SES-B' })).ledger).toBe('governance');
    expect(await code(resolveGov({ session_id: 'SES-B', root: '/elsewhere' }))).toMatch(/^INVALID_ARGUMENTS: .*belongs to the plane root/);
  });

  it('accepts the root with a trailing slash and refuses a root that was not ingested', async () => {
    expect((await resolveGov({ root: `${plane}/` })).root).toBe(plane);
    expect(await code(resolveGov({ root: '/no/such/root' }))).toMatch(/^NO_PLANE_ROOT: .*is not an ingested plane root; known: /);
  });

  it('answers SESSION_NOT_FOUND for an unknown session', async () => {
    expect(await code(resolveGov({ session_id: 'SES-NOPE' }))).toMatch(/^SESSION_NOT_FOUND/);
    expect(await code(resolvePlaneRoot(store, { session_id: 'SES-NOPE' }))).toMatch(/^SESSION_NOT_FOUND/);
  });
});

describe('resolveLedger (Claude Code session)', () => {
  it("uses the session's ledgers by name, transcript by default", async () => {
    const sel = await resolveGov({ session_id: CC_SESSION });
    expect(sel).toMatchObject({ format: 'claude-code', ledger: 'transcript', entrySessionId: null });
    expect(sel.ledgers).toEqual(['transcript', 'agent-a7be2f0', 'agent-acompact-f46190']);
    expect(sel.files.map((f) => f.file)).toEqual([`projects/-home-USER-projects-spotter-worktrees-spotter-fum/${CC_SESSION}.jsonl`]);
    const agent = await resolveGov({ session_id: CC_SESSION, ledger: 'agent-a7be2f0' });
    expect(agent.files[0]!.file).toMatch(/subagents\/agent-a7be2f0\.jsonl$/);
  });

  it("lists the session's ledgers for an unknown name", async () => {
    expect(await code(resolveGov({ session_id: CC_SESSION, ledger: 'governance' }))).toBe(
      `LEDGER_NOT_FOUND: Session "${CC_SESSION}" has no ledger "governance". Valid ledgers: transcript, agent-a7be2f0, agent-acompact-f46190.`,
    );
  });

  it("asks for the session's ledgers together with its row (one round trip on a server), and once", async () => {
    // A view of the store that holds getSession's answer until sessionLedgers has been asked too.
    const asked: string[] = [];
    let release!: () => void;
    const ledgersAsked = new Promise<void>((r) => (release = r));
    const view = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'getSession')
          return async (id: string) => {
            asked.push('getSession');
            const row = await target.getSession(id);
            await Promise.race([ledgersAsked, new Promise((r) => setTimeout(r, 200))]);
            asked.push('row answered');
            return row;
          };
        if (name === 'sessionLedgers')
          return (id: string) => {
            asked.push('sessionLedgers');
            release();
            return target.sessionLedgers(id);
          };
        return Reflect.get(target, name, receiver);
      },
    });
    const sel = await resolveLedger(view, { session_id: CC_SESSION }, { defaultLedger: 'governance' });
    expect(asked).toEqual(['getSession', 'sessionLedgers', 'row answered']);
    expect(sel).toEqual(await resolveGov({ session_id: CC_SESSION }));
  });

  it('is not a plane root for verify_ledger', async () => {
    expect(await code(resolvePlaneRoot(store, { session_id: CC_SESSION }))).toMatch(/^NO_PLANE_ROOT: .*claude-code session/);
  });
});

describe('resolveLedger (several or no plane roots)', () => {
  it('needs root or session_id when several plane roots are in the store, and then uses live files in reading order', async () => {
    const two = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const edge = copyFixture('control-plane/edge');
    const small = writePlaneRoot(tempDir('hs-plane-'), [cp.sessionStart('SES-Z', 0)]);
    await ingestPaths(two, [edge, small]);
    const r = (args: LedgerAddressArgs) => resolveLedger(two, args, { defaultLedger: 'governance' });
    const message = await code(r({}));
    expect(message).toMatch(/^AMBIGUOUS_ROOT: Several Control Plane roots/);
    expect(message).toContain(edge);
    expect(message).toContain(small);
    const sel = await r({ root: edge, ledger: 'ho2m' });
    expect(sel.files.map((f) => [f.file, f.lines])).toEqual([
      ['HO2/ledger/ho2m-20260214-200318.jsonl', 69],
      ['HO2/ledger/ho2m.jsonl', 104],
    ]);
    expect((await r({ session_id: 'SES-Z' })).root).toBe(small);
    await two.close();
  });

  it('says so when no plane root has been ingested', async () => {
    const none = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    expect(await code(resolveLedger(none, {}, { defaultLedger: 'governance' }))).toMatch(/^NO_PLANE_ROOT: .*none has been ingested/);
    await none.close();
  });
});
