// Store reads filtered by a set of projects (store.ts ProjectScope), on every engine: each read with
// `projects` answers what the whole store's answer filtered in memory by the scope's rules gives
// (scope-reference.ts), totals and pages included.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import type { SearchTerm, Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';
import { scopeReference } from './scope-reference.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];
const ALL = { limit: 100_000, offset: 0 };
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

describe.each(engines.map((e) => [e.name, e] as const))('project filters on %s', (_name, engine) => {
  let store: Store;
  let scopes: { name: string; projects: string[] }[];
  let planes: string[];

  beforeAll(async () => {
    const cc = copyFixture('claude-code');
    const edge = copyFixture('control-plane/edge');
    const normal = copyFixture('control-plane/normal');
    planes = [edge, normal];
    store = await engine.create();
    await ingestPaths(store, [cc, edge, normal]);
    const counts = new Map<string, number>();
    for (const s of (await store.listSessions(ALL)).sessions) if (s.project !== null && !planes.includes(s.project)) counts.set(s.project, (counts.get(s.project) ?? 0) + 1);
    const cc1 = [...counts].sort(([, x], [, y]) => y - x).map(([p]) => p);
    expect(cc1.length).toBeGreaterThanOrEqual(2);
    // Findings naming no session: on a file of each of two projects' sessions (in scope with its
    // file) and on the root of per-session files itself (never a project).
    const files = (await store.listFiles(ALL)).files;
    const projectOf = new Map((await store.listSessions(ALL)).sessions.map((s) => [s.id, s.project]));
    const fileOf = (project: string) => files.find((f) => f.root === cc && f.sessionId !== null && projectOf.get(f.sessionId) === project)!.file;
    const writer = await store.beginIngest();
    const root = await writer.rootId(cc, 'claude-code');
    await writer.addDefects(root, [
      { severity: 'error', kind: 'unreadable', file: fileOf(cc1[0]!), line: 3, message: 'no session known' },
      { severity: 'warning', kind: 'unreadable', file: fileOf(cc1[1]!), line: null, message: 'no session known' },
      { severity: 'info', kind: 'root_note', file: '', line: null, message: 'about the root' },
    ]);
    await writer.release();
    scopes = [
      { name: 'one Claude Code project', projects: [cc1[0]!] },
      { name: 'two Claude Code projects', projects: [cc1[0]!, cc1[1]!] },
      { name: 'a Control Plane root with findings', projects: [edge] },
      { name: 'a plane root, a project and an unknown name', projects: [normal, cc1[1]!, 'no-such-project'] },
      { name: 'the path of a root of per-session files (no project)', projects: [cc] },
      { name: 'nothing', projects: [] },
    ];
  }, 120_000);

  afterAll(async () => {
    await store.close();
  });

  it('the fixture has what the rules are about: findings without a session, plane files, several projects', async () => {
    const defects = (await store.listDefects(ALL)).defects;
    expect(defects.filter((d) => !d.sessionId && d.kind === 'unreadable')).toHaveLength(2);
    expect(defects.some((d) => !d.sessionId && planes.includes(d.root))).toBe(true);
    expect((await store.listFiles(ALL)).files.some((f) => f.sessionId === null && planes.includes(f.root))).toBe(true);
  });

  it('lists sessions, files and findings of the scope, with their totals and pages', async () => {
    for (const { name, projects } of scopes) {
      const ref = await scopeReference(store, projects, planes);
      const sessions = await store.listSessions({ ...ALL, projects });
      expect(sessions, name).toEqual({ total: ref.sessions.length, sessions: ref.sessions });
      expect(await store.listSessions({ projects, limit: 2, offset: 1 }), name).toEqual({ total: ref.sessions.length, sessions: ref.sessions.slice(1, 3) });
      const top = ref.sessions.filter((s) => s.parentId === null);
      expect((await store.listSessions({ ...ALL, projects, topLevelOnly: true })).sessions, name).toEqual(top);
      expect(await store.listFiles({ ...ALL, projects }), name).toEqual({ total: ref.files.length, files: ref.files });
      expect(await store.listFiles({ projects, limit: 3, offset: 2 }), name).toEqual({ total: ref.files.length, files: ref.files.slice(2, 5) });
      expect(await store.listDefects({ ...ALL, projects }), name).toEqual({ total: ref.defects.length, defects: ref.defects });
      expect(await store.listDefects({ projects, limit: 2, offset: 1 }), name).toEqual({ total: ref.defects.length, defects: ref.defects.slice(1, 3) });
      const errors = ref.defects.filter((d) => d.severity === 'error');
      expect((await store.listDefects({ ...ALL, projects, severity: 'error' })).defects, name).toEqual(errors);
      expect(await store.totals(projects), name).toEqual(ref.totals);
    }
  });

  it('the plane root with findings sees them, and a root of per-session files sees nothing', async () => {
    const [, , plane, , perSession, nothing] = scopes;
    expect((await store.listDefects({ ...ALL, projects: plane!.projects })).total).toBeGreaterThan(0);
    expect((await store.listFiles({ ...ALL, projects: plane!.projects })).total).toBeGreaterThan(0);
    for (const s of [perSession!, nothing!]) {
      expect(await store.totals(s.projects)).toMatchObject({ roots: 0, files: 0, sessions: 0, events: 0, byFormat: {} });
      expect((await store.listFiles({ ...ALL, projects: s.projects })).total).toBe(0);
    }
  });

  it('searches messages and metadata of the scope only, paged as the filtered whole', async () => {
    const terms: SearchTerm[][] = [[{ kind: 'word', text: 'the' }], [{ kind: 'prefix', text: 'sess' }]];
    for (const { name, projects } of scopes) {
      const mine = (p: string | null) => p !== null && projects.includes(p);
      for (const t of terms) {
        const whole = (await store.searchMessages({ terms: t, ...ALL })).hits.filter((h) => mine(h.project));
        expect(await store.searchMessages({ terms: t, projects, ...ALL }), name).toEqual({ total: whole.length, hits: whole });
        const page = await store.searchMessages({ terms: t, projects, limit: 3, offset: 2, context: 1 });
        const withContext = (await store.searchMessages({ terms: t, ...ALL, context: 1 })).hits.filter((h) => mine(h.project));
        expect(page, name).toEqual({ total: whole.length, hits: withContext.slice(2, 5) });
        const meta = (await store.searchSessionMetadata({ terms: t, ...ALL })).hits.filter((h) => mine(h.project));
        expect(await store.searchSessionMetadata({ terms: t, projects, ...ALL }), name).toEqual({ total: meta.length, hits: meta });
      }
    }
  });

  it('groups usage and tallies sessions of the scope only', async () => {
    const whole = await store.usageCallGroups!(200_000);
    const tallies = await store.sessionTallies!();
    for (const { name, projects } of scopes) {
      const sessions = whole.sessions.filter((s) => s.project !== null && projects.includes(s.project));
      const ids = new Set(sessions.map((s) => s.id));
      const scoped = await store.usageCallGroups!(200_000, projects);
      expect(byId(scoped.sessions), name).toEqual(byId(sessions));
      const key = (g: object) => JSON.stringify(g);
      expect(scoped.groups.map(key).sort(), name).toEqual(whole.groups.filter((g) => ids.has(g.sessionId)).map(key).sort());
      // Another threshold groups the calls again, with the same scope.
      const other = await store.usageCallGroups!(1000, projects);
      const otherWhole = await store.usageCallGroups!(1000);
      expect(other.groups.map(key).sort(), name).toEqual(otherWhole.groups.filter((g) => ids.has(g.sessionId)).map(key).sort());
      expect(byId(await store.sessionTallies!(projects)), name).toEqual(byId(tallies.filter((t) => ids.has(t.id))));
    }
  });
});
