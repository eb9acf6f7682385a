// scopedStore: a Store showing only some projects' sessions (a session's `project`; a Control Plane
// root's evidence is the project named by its path), so tools run for a team token need no change.

import type { Format } from '../../../core/model.js';
import type {
  DefectQuery,
  DefectRow,
  EvidenceBlockView,
  EvidenceRef,
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
import type { StoredEvent } from '../../../core/events.js';
import { profilesOf } from '../../../formats/registry.js';
import { ScopedWriteRefused } from '../access-errors.js';
import { collectAll, pageOf } from './collect.js';
import { scopedTotals } from './scoped-totals.js';

/**
 * `store` seen through a list of projects. Lists, searches and counts are filtered before paging
 * (the engine is read in full pages and the page cut in memory); a session of another project is
 * null, as if absent, so tools answer SESSION_NOT_FOUND; reads by file id only serve files of
 * allowed sessions and roots; writing is refused. Meant to live for one request: it memoises what
 * it read, and never closes the store it wraps.
 *
 * @example
 * const store = scopedStore(shared, ['-home-ana-app']);
 * await runTool(findTool('list_sessions')!, {}, { store });
 */
export function scopedStore(store: Store, projects: readonly string[]): Store {
  return new ScopedStore(store, new Set(projects));
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

  /** The engine's grouped usage, cut to the scope's sessions: present exactly when the engine has it. */
  readonly usageCallGroups?: Store['usageCallGroups'];
  /** The engine's calls one by one, cut the same way: present exactly when the engine has them. */
  readonly usageCallRows?: Store['usageCallRows'];

  constructor(
    private readonly inner: Store,
    private readonly projects: ReadonlySet<string>,
  ) {
    this.engine = inner.engine;
    this.location = inner.location;
    const groups = inner.usageCallGroups?.bind(inner);
    if (groups) {
      this.usageCallGroups = async (threshold) => {
        const all = await groups(threshold);
        const sessions = all.sessions.filter((s) => this.allowedRow(s));
        const ids = new Set(sessions.map((s) => s.id));
        return { sessions, groups: all.groups.filter((g) => ids.has(g.sessionId)) };
      };
    }
    const rows = inner.usageCallRows?.bind(inner);
    if (rows) {
      this.usageCallRows = async () => {
        const all = await rows();
        const sessions = all.sessions.filter((s) => this.allowedRow(s));
        const ids = new Set(sessions.map((s) => s.id));
        return { sessions, calls: all.calls.filter((c) => ids.has(c.sessionId)) };
      };
    }
  }

  private once<T>(name: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(name) as Promise<T> | undefined;
    if (!p) this.memo.set(name, (p = make()));
    return p;
  }

  private allowedRow(row: { project: string | null }): boolean {
    return row.project !== null && this.projects.has(row.project);
  }

  /** One project pushed down to the engine when that narrows the read without changing the answer. */
  private pushProject<Q extends { project?: string }>(q: Q): Q {
    const only = this.projects.size === 1 ? [...this.projects][0] : undefined;
    return q.project === undefined && only !== undefined ? { ...q, project: only } : q;
  }

  private matchingSessions(q: Omit<SessionQuery, 'limit' | 'offset'>): Promise<SessionRow[]> {
    const query = this.pushProject(q);
    return this.once(`sessions ${key(query)}`, async () =>
      (await collectAll(async (offset, limit) => (await this.inner.listSessions({ ...query, offset, limit })).sessions)).filter((r) =>
        this.allowedRow(r),
      ),
    );
  }

  private sessionIds(): Promise<Set<string>> {
    return this.once('session ids', async () => new Set((await this.matchingSessions({})).map((s) => s.id)));
  }

  /**
   * Roots of shared ledgers (a Control Plane root, asked of the format's profile) named by the
   * token's projects. Only such a root is a project: a root of per-session files holds many
   * projects, so naming its path gives nothing.
   */
  private sharedRoots(): Promise<Set<string>> {
    return this.once('shared roots', async () => {
      const roots = (await this.inner.listRoots()).filter((r) => this.projects.has(r.path));
      const profiles = await profilesOf(roots.map((r) => r.format));
      return new Set(roots.filter((r) => profiles.get(r.format)!.sharedLedgers !== null).map((r) => r.path));
    });
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

  private allowedFiles(): Promise<SourceFileRow[]> {
    return this.once('files', async () => {
      const [ids, roots] = await Promise.all([this.sessionIds(), this.sharedRoots()]);
      const files = await collectAll(async (offset, limit) => (await this.inner.listFiles({ offset, limit })).files);
      return files.filter((f) => (f.sessionId !== null ? ids.has(f.sessionId) : roots.has(f.root)));
    });
  }

  private async matchingDefects(q: Omit<DefectQuery, 'limit' | 'offset'>): Promise<DefectRow[]> {
    const [ids, roots] = await Promise.all([this.sessionIds(), this.sharedRoots()]);
    if (q.sessionId !== undefined && !ids.has(q.sessionId)) return [];
    const fileKeys = new Set((await this.allowedFiles()).map((f) => `${f.root}\0${f.file}`));
    const all = await collectAll(async (offset, limit) => (await this.inner.listDefects({ ...q, offset, limit })).defects);
    return all.filter((d) =>
      d.sessionId ? ids.has(d.sessionId) : roots.has(d.root) || (d.file !== '' && fileKeys.has(`${d.root}\0${d.file}`)),
    );
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
    const { limit, offset, ...filters } = q;
    const { total, items } = pageOf(await this.matchingSessions(filters), offset, limit);
    return { total, sessions: items };
  }

  async getSession(id: string): Promise<SessionRow | null> {
    const row = await this.inner.getSession(id);
    return row && this.allowedRow(row) ? row : null;
  }

  async searchSessionMetadata(q: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
    const { limit, offset, ...filters } = this.pushProject(q);
    const all = await collectAll(async (o, l) => (await this.inner.searchSessionMetadata({ ...filters, offset: o, limit: l })).hits);
    const { total, items } = pageOf(
      all.filter((h) => this.allowedRow(h)),
      offset,
      limit,
    );
    return { total, hits: items };
  }

  async searchMessages(q: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
    const { limit, offset, context, ...filters } = this.pushProject(q);
    // Every hit without neighbours first (cheaper), then the page's stretch again with them.
    const all = await collectAll(async (o, l) => (await this.inner.searchMessages({ ...filters, offset: o, limit: l })).hits);
    const kept = all.flatMap((h, at) => (this.allowedRow(h) ? [{ h, at }] : []));
    const { total, items } = pageOf(kept, offset, limit);
    let hits = items.map((i) => i.h);
    const first = items[0]?.at;
    const last = items.at(-1)?.at;
    if (context && first !== undefined && last !== undefined) {
      const stretch = (await this.inner.searchMessages({ ...filters, context, offset: first, limit: last - first + 1 })).hits;
      const same = (a: MessageHit | undefined, b: MessageHit) => a?.fileId === b.fileId && a.lineNumber === b.lineNumber;
      const withContext = items.map((i) => stretch[i.at - first]);
      // An ingest between the two reads can move hits: then read everything with neighbours.
      hits = withContext.every((h, j) => same(h, hits[j]!))
        ? (withContext as MessageHit[])
        : (await collectAll(async (o, l) => (await this.inner.searchMessages({ ...filters, context, offset: o, limit: l })).hits))
            .filter((h) => this.allowedRow(h))
            .slice(offset, offset + limit);
    }
    for (const h of hits) this.vouched.add(h.fileId);
    return { total, hits };
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

  async ledgerEntries(q: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
    if (q.sessionId !== undefined && !(await this.sessionIds()).has(q.sessionId)) return { total: 0, entries: [] };
    const fileIds = await this.allowedFileIds(q.fileIds);
    return fileIds.length ? this.inner.ledgerEntries({ ...q, fileIds }) : { total: 0, entries: [] };
  }

  async ledgerEventTypes(fileIds: number[]): Promise<{ type: string; count: number }[]> {
    const allowed = await this.allowedFileIds(fileIds);
    return allowed.length ? this.inner.ledgerEventTypes(allowed) : [];
  }

  async scanEvidence(fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void): Promise<void> {
    const allowed = await this.allowedFileIds(fileIds);
    if (allowed.length) await this.inner.scanEvidence(allowed, visit);
  }

  async listFiles(options: { limit: number; offset: number }): Promise<{ total: number; files: SourceFileRow[] }> {
    const { total, items } = pageOf(await this.allowedFiles(), options.offset, options.limit);
    return { total, files: items };
  }

  async listDefects(q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
    const { limit, offset, ...filters } = q;
    const { total, items } = pageOf(await this.matchingDefects(filters), offset, limit);
    return { total, defects: items };
  }

  async totals(): Promise<StoreTotals> {
    const [whole, files, sessions, defects] = await Promise.all([
      this.inner.totals(),
      this.allowedFiles(),
      this.matchingSessions({}),
      this.matchingDefects({}),
    ]);
    return scopedTotals(whole, files, sessions, defects);
  }

  /** The wrapped store belongs to the server, which closes it. */
  async close(): Promise<void> {}
}
