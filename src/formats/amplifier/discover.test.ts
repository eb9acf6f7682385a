// detect, defaultRoots and discover on real folders in a temp dir: every accepted root shape,
// backups, links that loop or repeat, and a Claude Code layout that must not be taken for ours.

import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImporter } from '../harness.js';
import { amplifier } from './index.js';

const FIXTURES = join(import.meta.dirname, '../../../../shared/fixtures/amplifier/normal/projects');
const SLUG = '-home-maya-src-acme-billing';
const ROOT_ID = 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2';
const SUB_ID = '72a41438bce83941-f8678fb288dd2206_foundation-bug-hunter';

const tmp = mkdtempSync(join(tmpdir(), 'hindsight-amp-discover-'));
const home = join(tmp, 'home', '.amplifier');
const sessions = join(home, 'projects', SLUG, 'sessions');

/** Fixture copies are read-only like their source; make them writable so the test can add files. */
function makeWritable(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) makeWritable(join(path, name));
}

beforeAll(() => {
  mkdirSync(sessions, { recursive: true });
  for (const id of [ROOT_ID, SUB_ID]) cpSync(join(FIXTURES, SLUG, 'sessions', id), join(sessions, id), { recursive: true });
  makeWritable(home);
  // A repair rewrote the transcript: the old copy is the only record of the lost lines.
  cpSync(join(sessions, ROOT_ID, 'transcript.jsonl.backup'), join(sessions, ROOT_ID, 'transcript.jsonl.bak-pre-repair-20260618010000'));
  symlinkSync('loop', join(sessions, 'loop')); // points at itself: ELOOP
  symlinkSync(ROOT_ID, join(sessions, 'zz-same-session')); // a second path to one folder
  symlinkSync('..', join(sessions, 'up')); // a folder, but not a session
  mkdirSync(join(home, 'projects', '-empty-project')); // no sessions/ yet: not worth a note
  // A Claude Code config folder: projects/<slug>/<uuid>.jsonl, no sessions/.
  mkdirSync(join(tmp, 'claude', 'projects', '-home-x'), { recursive: true });
  writeFileSync(join(tmp, 'claude', 'projects', '-home-x', `${ROOT_ID}.jsonl`), '{}\n');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('amplifier detect', () => {
  it('accepts a home, a projects folder, a project folder and a session folder', async () => {
    expect(await amplifier.detect(home)).toBe(true);
    expect(await amplifier.detect(join(home, 'projects'))).toBe(true);
    expect(await amplifier.detect(join(home, 'projects', SLUG))).toBe(true);
    expect(await amplifier.detect(sessions)).toBe(true);
    expect(await amplifier.detect(join(sessions, ROOT_ID))).toBe(true);
  });

  it('rejects a Claude Code folder, an empty folder and a file', async () => {
    expect(await amplifier.detect(join(tmp, 'claude'))).toBe(false);
    expect(await amplifier.detect(join(home, 'projects', '-empty-project'))).toBe(false);
    expect(await amplifier.detect(join(sessions, ROOT_ID, 'events.jsonl'))).toBe(false);
    expect(await amplifier.detect(join(tmp, 'missing'))).toBe(false);
  });
});

describe('amplifier defaultRoots', () => {
  it('returns $AMPLIFIER_HOME and ~/.amplifier when they hold projects/, once each', async () => {
    const fakeHome = join(tmp, 'home');
    expect(await amplifier.defaultRoots({}, fakeHome)).toEqual([home]);
    expect(await amplifier.defaultRoots({ AMPLIFIER_HOME: '~/.amplifier' }, fakeHome)).toEqual([join(fakeHome, '.amplifier')]);
    expect(await amplifier.defaultRoots({ AMPLIFIER_HOME: join(tmp, 'nothing-here') }, fakeHome)).toEqual([home]);
    expect(await amplifier.defaultRoots({}, join(tmp, 'claude'))).toEqual([]);
  });
});

describe('amplifier discover', () => {
  it('lists each session’s files in order, with layout facts and deterministic results', async () => {
    const files = await amplifier.discover(home);
    const dir = `projects/${SLUG}/sessions`;
    expect(files.map((f) => [f.relPath, f.ledger, f.kind, f.evidenceOnly ?? false])).toEqual([
      [`${dir}/${SUB_ID}/metadata.json`, 'metadata', 'document', false],
      [`${dir}/${SUB_ID}/transcript.jsonl`, 'transcript', 'jsonl', false],
      [`${dir}/${SUB_ID}/events.jsonl`, 'events', 'jsonl', false],
      [`${dir}/${ROOT_ID}/metadata.json`, 'metadata', 'document', false],
      [`${dir}/${ROOT_ID}/transcript.jsonl`, 'transcript', 'jsonl', false],
      [`${dir}/${ROOT_ID}/events.jsonl`, 'events', 'jsonl', false],
      [`${dir}/${ROOT_ID}/transcript.jsonl.bak-pre-repair-20260618010000`, 'transcript.bak-pre-repair-20260618010000', 'jsonl', true],
    ]);
    expect(files.every((f) => f.sessionId === f.relPath.split('/')[3])).toBe(true);
    expect(files[0]!.facts).toEqual([
      expect.objectContaining({ id: SUB_ID, project: SLUG, kind: 'subagent', mainLedger: 'transcript', attrs: expect.objectContaining({ agentSlug: 'foundation-bug-hunter' }) }),
    ]);
    expect(files[3]!.facts).toEqual([expect.objectContaining({ id: ROOT_ID, kind: 'root', parentId: null })]);
    expect(JSON.stringify(await amplifier.discover(home))).toBe(JSON.stringify(files));
  });

  it('turns odd entries into notes and never throws', async () => {
    const notes = (await amplifier.discover(home)).flatMap((f) => f.notes ?? []);
    const dir = `projects/${SLUG}/sessions`;
    const find = (kind: string, file: string) => notes.find((n) => n.kind === kind && n.file === file);
    expect(find('unreadable_entry', `${dir}/loop`)?.message).toContain('symlink loop');
    expect(find('duplicate_session_folder', `${dir}/zz-same-session`)?.severity).toBe('warning');
    expect(find('not_a_session_folder', `${dir}/up`)?.severity).toBe('info');
    expect(find('repair_backup', `${dir}/${ROOT_ID}/transcript.jsonl.bak-pre-repair-20260618010000`)?.severity).toBe('warning');
    expect(find('backup_file', `${dir}/${ROOT_ID}/metadata.json.backup`)?.severity).toBe('info');
    expect(notes.some((n) => n.file.includes('-empty-project'))).toBe(false);
  });

  it('gives the same sessions, project and parent from a projects, project or session folder', async () => {
    const fromProjects = await amplifier.discover(join(home, 'projects'));
    expect(fromProjects[0]!.relPath).toBe(`${SLUG}/sessions/${SUB_ID}/metadata.json`);
    const fromProject = await amplifier.discover(join(home, 'projects', SLUG));
    expect(fromProject[0]!.relPath).toBe(`sessions/${SUB_ID}/metadata.json`);
    const fromSessions = await amplifier.discover(sessions);
    expect(fromSessions[0]!.relPath).toBe(`${SUB_ID}/metadata.json`);
    expect(fromSessions[0]!.facts![0]!.project).toBe(SLUG);
    const one = await runImporter(amplifier, join(sessions, ROOT_ID));
    expect(one.files.map((f) => f.relPath)).toContain('events.jsonl');
    expect([...one.sessions.keys()]).toEqual([ROOT_ID]);
    expect(one.sessions.get(ROOT_ID)!.facts).toMatchObject({ project: SLUG, kind: 'root' });
    expect(one.sessions.get(ROOT_ID)!.summary.turnCount).toBe(3);
  });

  it('links a nested sub-agent to its parent sub-agent by span even without metadata', async () => {
    const parent = '0000000000000000-72a41438bce83941_foundation-zen-architect';
    const nest = join(tmp, 'nest', 'projects', SLUG, 'sessions');
    mkdirSync(join(nest, parent), { recursive: true });
    mkdirSync(join(nest, SUB_ID));
    writeFileSync(join(nest, parent, 'events.jsonl'), '');
    writeFileSync(join(nest, SUB_ID, 'events.jsonl'), '');
    const files = await amplifier.discover(join(tmp, 'nest'));
    const facts = files.find((f) => f.sessionId === SUB_ID)!.facts![0]!;
    expect(facts).toMatchObject({ kind: 'subagent', parentId: parent });
    const notes = files.flatMap((f) => f.notes ?? []);
    expect(notes.filter((n) => n.kind === 'missing_metadata')).toHaveLength(2);
    expect(notes.filter((n) => n.kind === 'empty_file')).toHaveLength(0); // the pipeline reports empty files
  });

  it('returns nothing for a path that is not a folder', async () => {
    expect(await amplifier.discover(join(tmp, 'missing'))).toEqual([]);
  });
});
