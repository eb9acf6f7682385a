// Test helper: a team store on either engine (Claude Code projects, an Amplifier home, a Control
// Plane root), with a fake API key planted in project A's first prompt.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { postgresEngine, sqliteEngine, type Engine } from '../../store/conformance/engines.js';
import type { Store } from '../../store/store.js';

/** Project A: a Claude Code session with two sub-agent sessions. */
export const PROJECT_A = '-home-USER-projects-spotter-worktrees-spotter-fum';
export const A_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
/** Another Claude Code project (B) and its interrupted session (rewindable). */
export const PROJECT_B = '-home-marco-projects-spotter';
export const B_SESSION = 'd6e0bada-1959-4eec-a9d2-0bfade768d8f';
export const CP_SESSION = 'SES-5078F5F8';
/** A fake Anthropic key (the redaction pattern's shape), planted in A's first user message. */
export const PLANTED_KEY = 'sk-ant-api03-PLANTEDsecretKEY0123456789abcdefXYZ';
export const PLANTED_MARK = 'PLANTEDsecretKEY';

export interface TeamFixture {
  engine: Engine;
  store: Store;
  /** The --db of the store (a path or a postgres:// URL with its schema). */
  db: string;
  /** The Control Plane root path: the project of its sessions. */
  planeRoot: string;
  /** Every session id of the store, by project. */
  sessionsByProject: Map<string, string[]>;
}

/** Ingest the fixtures (copies; A's transcript holds PLANTED_KEY) into a new store of `engine`. */
export async function teamFixture(kind: 'sqlite' | 'postgres'): Promise<TeamFixture> {
  const engine = kind === 'sqlite' ? sqliteEngine() : postgresEngine();
  const cc = copyFixture('claude-code');
  const transcript = join(cc, 'projects', PROJECT_A, `${A_SESSION}.jsonl`);
  const text = readFileSync(transcript, 'utf8');
  const planted = text.replace('Start with the first ready task.', `Start with the first ready task. My key is ${PLANTED_KEY} for now.`);
  if (planted === text) throw new Error('the planting spot is gone from the fixture');
  writeFileSync(transcript, planted);
  const planeRoot = copyFixture('control-plane/normal');
  const amplifier = copyFixture('amplifier/normal');
  const store = await engine.create();
  await ingestPaths(store, [cc, amplifier, planeRoot]);
  const sessionsByProject = new Map<string, string[]>();
  const { sessions } = await store.listSessions({ limit: 500, offset: 0 });
  for (const s of sessions) sessionsByProject.set(s.project ?? '', [...(sessionsByProject.get(s.project ?? '') ?? []), s.id]);
  return { engine, store, db: engine.db(), planeRoot, sessionsByProject };
}

/** Strings that must never appear in an answer to a token of `allowed` projects. */
export function foreignMarks(f: TeamFixture, allowed: string[]): string[] {
  const marks: string[] = [];
  for (const [project, ids] of f.sessionsByProject) if (!allowed.includes(project)) marks.push(project, ...ids);
  return marks;
}
