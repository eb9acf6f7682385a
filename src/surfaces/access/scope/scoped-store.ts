// scopedStore: a Store showing only some projects' sessions (a session's `project`; a Control Plane
// root's evidence is the project named by its path), so tools run for a team token need no change.

import type { Format } from '../../../core/model.js';
import type {
  DefectQuery,
  DefectRow,
  EvidenceBlockView,
  EvidenceSkip,
  EvidenceLineHash,
  EvidenceRef,
  FileQuery,
  IngestWriter,
  LedgerEntryQuery,
  LedgerEntryRow,
  LedgerInfo,
  MessageHit,
  MetadataHit,
  RawLineRow,
  SearchFilters,
  SessionQuery,
  SessionRow,
  SourceFileRow,
  Store,
  StoreTotals,
  SyncStateSlot,
  TokenTable,
} from '../../../store/store.js';
import { lineHash } from '../../../core/line-hash.js';
import type { StoredEvent } from '../../../core/events.js';
import { projectRoots } from '../../../store/shared/ledger-traits.js';
import { ScopedWriteRefused } from '../access-errors.js';
import { collectAll } from './collect.js';

/**
 * `store` seen through a list of projects (store.ts ProjectScope states the rules). Lists, searches
 * and counts pass the projects down, so the engine filters before it counts and pages; a session
 * of another project is null, as if absent, so tools answer SESSION_NOT_FOUND; reads by file id
 * only serve files of allowed sessions and roots; writing is refused. Meant to live for one
 * request: it memoises what it read, and never closes the store it wraps.
 *
 * @example
 * const store = scopedStore(shared, ['-home-ana-app']);
 * await runTool(findTool('list_sessions')!, {}, { store });
 */
export function scopedStore(store: Store, projects: readonly string[]): Store {
  return new ScopedStore(store, [...new Set(projects)]);
}

function key(q: object): string {
  return JSON.stringify(q);
}

class ScopedStore implements Store {
  readonly engine: Store['engine'];
  readonly location: string;
  private readonly memo = new Map<string, Promise<unknown>>();
  /** File ids this scope has handed out (from ledgers it served), so reads by id need no lookup. */
  private readonly vouched = new Set<number>();

  /** The engine's grouped usage and tallies of the scope's sessions: present exactly when the engine has them. */
  readonly usageCallGroups?: Store['usageCallGroups'];
  readonly sessionTallies?: Store['sessionTallies'];
  readonly usageCallRows?: Store['usageCallRows'];
  readonly usageCallHours?: Store['usageCallHours'];

  constructor(
    private readonly inner: Store,
    private readonly projects: readonly string[],
  ) {
    this.engine = inner.engine;
    this.location = inner.location;
    const groups = inner.usageCallGroups?.bind(inner);
    if (groups) this.usageCallGroups = (threshold, projects) => groups(threshold, this.within(projects));
    const tallies = inner.sessionTallies?.bind(inner);
    if (tallies) this.sessionTallies = (projects) => tallies(this.within(projects));
    const rows = inner.usageCallRows?.bind(inner);
    if (rows) this.usageCallRows = (projects) => rows(this.within(projects));
    const hours = inner.usageCallHours?.bind(inner);
    if (hours) this.usageCallHours = (threshold, projects) => hours(threshold, this.within(projects));
  }

  private once<T>(name: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(name) as Promise<T> | undefined;
    if (!p) this.memo.set(name, (p = make()));
    return p;
  }

  private allowedRow(row: { project: string | null }): boolean {
    return row.project !== null && this.projects.includes(row.project);
  }

  /** The scope's projects, narrowed to those a caller asked for (a scope within a scope). */
  private within(asked: readonly string[] | undefined): readonly string[] {
    return asked === undefined ? this.projects : asked.filter((p) => this.projects.includes(p));
  }

  private matchingSessions(q: Omit<SessionQuery, 'limit' | 'offset'>): Promise<SessionRow[]> {
    const query = { ...q, projects: this.within(q.projects) };
    return this.once(`sessions ${key(query)}`, () => collectAll(async (offset, limit) => (await this.inner.listSessions({ ...query, offset, limit })).sessions));
  }

  private sessionIds(): Promise<Set<string>> {
    return this.once('session ids', async () => new Set((await this.matchingSessions({})).map((s) => s.id)));
  }

  /** Roots of shared ledgers (a Control Plane root) named by the token's projects (ledger-traits.ts projectRoots). */
  private sharedRoots(): Promise<Set<string>> {
    return this.once('shared roots', async () => new Set((await projectRoots(await this.inner.listRoots(), this.projects)).map((r) => r.path)));
  }

  private vouch(ledgers: LedgerInfo[]): LedgerInfo[] {
    for (const l of ledgers) for (const f of l.files) this.vouched.add(f.fileId);
    return ledgers;
  }

  /** Every file id of the scope: its sessions' ledgers and its plane roots' ledgers. */
  private allFileIds(): Promise<Set<number>> {
    return this.once('file ids', async () => {
      const ids = new Set<number>();
      const ledgers = [
        ...(await Promise.all([...(await this.sessionIds())].map((id) => this.inner.sessionLedgers(id)))).flat(),
        ...(await Promise.all([...(await this.sharedRoots())].map((r) => this.inner.rootLedgers(r)))).flat(),
      ];
      for (const l of ledgers) for (const f of l.files) ids.add(f.fileId);
      return ids;
    });
  }

  private async allowedFileIds(fileIds: number[]): Promise<number[]> {
    if (fileIds.every((id) => this.vouched.has(id))) return fileIds;
    const all = await this.allFileIds();
    return fileIds.filter((id) => this.vouched.has(id) || all.has(id));
  }

  async beginIngest(): Promise<IngestWriter> {
    throw ScopedWriteRefused();
  }

  /** Tokens are the server's business, never a team token's. */
  tokens(): TokenTable {
    throw ScopedWriteRefused();
  }

  /** Read through (list_sessions says where a session came from); written only by sync, never here. */
  syncState(): SyncStateSlot {
    const inner = this.inner.syncState();
    return { read: () => inner.read(), write: () => Promise.reject(ScopedWriteRefused()) };
  }

  async listSessions(q: SessionQuery): Promise<{ total: number; sessions: SessionRow[] }> {
    return this.inner.listSessions({ ...q, projects: this.within(q.projects) });
  }

  async getSession(id: string): Promise<SessionRow | null> {
    const row = await this.inner.getSession(id);
    return row && this.allowedRow(row) ? row : null;
  }

  async searchSessionMetadata(q: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
    return this.inner.searchSessionMetadata({ ...q, projects: this.within(q.projects) });
  }

  async searchMessages(q: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    const found = await this.inner.searchMessages({ ...q, projects: this.within(q.projects) });
    for (const h of found.hits) this.vouched.add(h.fileId);
    return found;
  }

  async sessionLedgers(id: string): Promise<LedgerInfo[]> {
    return (await this.getSession(id)) ? this.vouch(await this.inner.sessionLedgers(id)) : [];
  }

  async listRoots(format?: Format): Promise<{ path: string; format: Format }[]> {
    const roots = await this.sharedRoots();
    return (await this.inner.listRoots(format)).filter((r) => roots.has(r.path));
  }

  async rootLedgers(rootPath: string): Promise<LedgerInfo[]> {
    return (await this.sharedRoots()).has(rootPath) ? this.vouch(await this.inner.rootLedgers(rootPath)) : [];
  }

  async rawLines(fileIds: number[], from: number, limit: number): Promise<RawLineRow[]> {
    const allowed = await this.allowedFileIds(fileIds);
    return allowed.length ? this.inner.rawLines(allowed, from, limit) : [];
  }

  async sessionTimeline(
    id: string,
    options: { offset: number; limit: number; descendants: boolean },
  ): Promise<{ total: number; events: StoredEvent[] }> {
    return (await this.getSession(id)) ? this.inner.sessionTimeline(id, options) : { total: 0, events: [] };
  }

  async sessionDescendants(id: string): Promise<string[]> {
    if (!(await this.getSession(id))) return [];
    const ids = await this.sessionIds();
    return (await this.inner.sessionDescendants(id)).filter((d) => ids.has(d));
  }

  async evidenceLines(refs: EvidenceRef[]): Promise<RawLineRow[]> {
    const allowed = new Set(await this.allowedFileIds([...new Set(refs.map((r) => r.fileId))]));
    const kept = refs.filter((r) => allowed.has(r.fileId));
    return kept.length ? this.inner.evidenceLines(kept) : [];
  }

  async evidenceLineHashes(refs: EvidenceRef[]): Promise<EvidenceLineHash[]> {
    const allowed = new Set(await this.allowedFileIds([...new Set(refs.map((r) => r.fileId))]));
    const kept = refs.filter((r) => allowed.has(r.fileId));
    if (kept.length === 0) return [];
    // An inner store without the hashes: the lines themselves, hashed here (the same answer).
    if (this.inner.evidenceLineHashes) return this.inner.evidenceLineHashes(kept);
    return (await this.inner.evidenceLines(kept)).map((r) => ({ fileId: r.fileId, lineNumber: r.lineNumber, length: r.raw.length, hash: lineHash(r.raw) }));
  }

  async ledgerEntries(q: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
    if (q.sessionId !== undefined && !(await this.sessionIds()).has(q.sessionId)) return { total: 0, entries: [] };
    const fileIds = await this.allowedFileIds(q.fileIds);
    return fileIds.length ? this.inner.ledgerEntries({ ...q, fileIds }) : { total: 0, entries: [] };
  }

  async ledgerEventTypes(fileIds: number[]): Promise<{ type: string; count: number }[]> {
    const allowed = await this.allowedFileIds(fileIds);
    return allowed.length ? this.inner.ledgerEventTypes(allowed) : [];
  }

  async scanEvidence(fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void, skip?: EvidenceSkip): Promise<void> {
    const allowed = await this.allowedFileIds(fileIds);
    if (allowed.length) await this.inner.scanEvidence(allowed, visit, skip);
  }

  async listFiles(q: FileQuery): Promise<{ total: number; files: SourceFileRow[] }> {
    return this.inner.listFiles({ ...q, projects: this.within(q.projects) });
  }

  async listDefects(q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
    return this.inner.listDefects({ ...q, projects: this.within(q.projects) });
  }

  async totals(projects?: readonly string[]): Promise<StoreTotals> {
    return this.inner.totals(this.within(projects));
  }

  /** The wrapped store belongs to the server, which closes it. */
  async close(): Promise<void> {}
}
