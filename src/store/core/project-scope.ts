// A ProjectScope (store.ts: the projects a team token may see) as SQL conditions, written once for
// every read that takes one, so the engine filters before it counts and pages instead of a wrapper
// reading every row and filtering it in memory.

import type { ProjectScope } from '../store.js';
import { projectRoots } from '../shared/ledger-traits.js';
import type { Sql } from './sql.js';

/** `column` (a session's `project`) is one of the scope's projects (the parameter `projects`). */
export function projectInScope(sql: Sql, column: string, projects: string): string {
  return sql.dialect.inArray(column, projects, 'text');
}

/** `column` (a session's sid) names a session of the scope. */
export function sidInScope(sql: Sql, column: string, projects: string): string {
  return `${column} IN (SELECT sid FROM sessions WHERE ${projectInScope(sql, 'project', projects)})`;
}

/** Ids of the roots that are projects of the scope (ProjectScope, projectRoots). */
export async function scopeRootIds(sql: Sql, projects: ProjectScope): Promise<number[]> {
  const named = await sql.all<{ id: number; path: string; format: string }>(
    `SELECT id, path, format FROM roots WHERE ${sql.dialect.inArray('path', '$1', 'text')}`,
    [projects],
  );
  return (await projectRoots(named, projects)).map((r) => r.id);
}

/**
 * The placeholders a scope's conditions read: its sessions' ids and its roots' ids, null when it has
 * none (nothing is bound then: PostgreSQL refuses a parameter no statement uses, and SQLite plans a
 * condition on one column better than an OR of two).
 */
export interface ScopeParams {
  sessionIds: string | null;
  rootIds: string | null;
}

/** A session of a scope as bindScope read it. */
export interface ScopeSession {
  id: string;
  format: string;
}

/**
 * Binds a scope's parameters through `p` (core/search.ts binder): the ids of its sessions and of its
 * roots, read once here, so that a statement looks files and findings up by the indexed session_id
 * instead of reading the wide sessions table again for each condition. Returns the sessions read.
 */
export async function bindScope(sql: Sql, projects: ProjectScope, p: (value: unknown) => string): Promise<ScopeParams & { sessions: ScopeSession[] }> {
  const [rows, rootIds] = await Promise.all([
    // Columns near the start of the row only: later ones may sit on overflow pages (long first messages).
    sql.arrays(`SELECT id, format FROM sessions WHERE ${projectInScope(sql, 'project', '$1')}`, [projects]),
    scopeRootIds(sql, projects),
  ]);
  const sessions = rows.map((r) => ({ id: r[0] as string, format: r[1] as string }));
  return { sessionIds: sessions.length ? p(sessions.map((s) => s.id)) : null, rootIds: rootIds.length ? p(rootIds) : null, sessions };
}

const NEVER = '1 = 0';

/** Either condition; `null` is one that never holds. */
function either(a: string | null, b: string | null): string {
  return a !== null && b !== null ? `(${a} OR ${b})` : (a ?? b ?? NEVER);
}

/** The row's session is one of the scope's. */
function sessionIn(sql: Sql, column: string, s: ScopeParams): string {
  return s.sessionIds === null ? NEVER : sql.dialect.inArray(column, s.sessionIds, 'text');
}

/** The row's root is one of the scope's. */
function rootIn(sql: Sql, column: string, s: ScopeParams): string | null {
  return s.rootIds === null ? null : sql.dialect.inArray(column, s.rootIds, 'int');
}

/** The file row `f` is in scope: its session is, or it names no session and its root is. */
export function fileInScope(sql: Sql, f: string, s: ScopeParams): string {
  const root = rootIn(sql, `${f}.root_id`, s);
  return either(s.sessionIds === null ? null : sessionIn(sql, `${f}.session_id`, s), root === null ? null : `(${f}.session_id IS NULL AND ${root})`);
}

/**
 * The finding `d` is in scope: one of a session when its session is; one naming no session when
 * its root is, or it is about a file (by root and relative path) in scope.
 */
export function defectInScope(sql: Sql, d: string, s: ScopeParams): string {
  const ofFile = `(${d}.rel_path <> '' AND EXISTS (SELECT 1 FROM files df WHERE df.root_id = ${d}.root_id AND df.rel_path = ${d}.rel_path AND ${fileInScope(sql, 'df', s)}))`;
  return `(CASE WHEN coalesce(${d}.session_id, '') <> '' THEN ${sessionIn(sql, `${d}.session_id`, s)} ELSE ${either(rootIn(sql, `${d}.root_id`, s), ofFile)} END)`;
}
