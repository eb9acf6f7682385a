// Detection, default roots and discovery: the three accepted root shapes, deterministic order,
// and folders that cannot be read (symlink loops, dangling links, symlinked duplicates).

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HUGE_LINE_BYTES } from '../../ingest/parse-file.js';
import { runImporter } from '../harness.js';
import { claudeCode } from './index.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, userLine } from './test-lines.js';
import { FIXTURES as SHARED_FIXTURES } from '../../../test/helpers.js';

const FIXTURES = join(SHARED_FIXTURES, 'claude-code');
const dirs: string[] = [];
function config(files: Parameters<typeof makeConfigDir>[0]): string {
  const dir = makeConfigDir(files);
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const transcript = [userLine('u1', null, 1, 'hello')];

describe('claude-code detect and default roots', () => {
  it('accepts a config folder, its projects/ folder and one slug folder', async () => {
    expect(await claudeCode.detect(FIXTURES)).toBe(true);
    expect(await claudeCode.detect(join(FIXTURES, 'projects'))).toBe(true);
    expect(await claudeCode.detect(join(FIXTURES, 'projects', '-path-to-Demo'))).toBe(true);
  });

  it('does not claim other layouts', async () => {
    const amplifierLike = config({ [`${SLUG}/sessions/abc/transcript.jsonl`]: transcript });
    // A ledger's lines are not Claude Code's (a folder of Claude Code lines is claimed by content).
    const ledgerLike = config({ 'HO2/ledger/ho2m.jsonl': '{"event_type":"TURN_RECORDED","session_id":"SES-1"}\n' });
    expect(await claudeCode.detect(amplifierLike)).toBe(false);
    expect(await claudeCode.detect(join(ledgerLike, 'projects', 'HO2', 'ledger'))).toBe(false);
    expect(await claudeCode.detect(join(FIXTURES, 'expected.json'))).toBe(false);
    expect(await claudeCode.detect(join(FIXTURES, 'does-not-exist'))).toBe(false);
  });

  it('uses each CLAUDE_CONFIG_DIR entry that has projects/, else ~/.config/claude and ~/.claude', async () => {
    const a = config({ [`${SLUG}/${SID}.jsonl`]: transcript });
    const b = config({});
    rmSync(join(b, 'projects'), { recursive: true, force: true });
    expect(await claudeCode.defaultRoots({ CLAUDE_CONFIG_DIR: ` ${a} , ${b},,${a}` }, '/nonexistent-home')).toEqual([a]);
    const home = config({});
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    expect(await claudeCode.defaultRoots({}, home)).toEqual([join(home, '.claude')]);
    mkdirSync(join(home, '.config', 'claude', 'projects'), { recursive: true });
    expect(await claudeCode.defaultRoots({}, home)).toEqual([join(home, '.config', 'claude'), join(home, '.claude')]);
  });
});

describe('claude-code discover', () => {
  it('finds the same sessions from each root shape, with paths relative to the root', async () => {
    const fromConfig = await claudeCode.discover(FIXTURES);
    const fromProjects = await claudeCode.discover(join(FIXTURES, 'projects'));
    const fromSlug = await claudeCode.discover(join(FIXTURES, 'projects', '-path-to-Demo'));
    expect(fromProjects.map((f) => f.sessionId)).toEqual(fromConfig.map((f) => f.sessionId));
    expect(fromProjects.map((f) => `projects/${f.relPath}`)).toEqual(fromConfig.map((f) => f.relPath));
    expect(fromSlug.map((f) => [f.relPath, f.facts?.[0]?.project])).toEqual([
      ['1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', '-path-to-Demo'],
      ['5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl', '-path-to-Demo'],
    ]);
    // Deterministic: slug folders, then session ids, each transcript before its sub-agents.
    expect(fromConfig.map((f) => f.relPath.split('/').slice(1, 2)[0])).toEqual([
      '-home-USER-projects-spotter-worktrees-spotter-fum',
      '-home-USER-projects-spotter-worktrees-spotter-fum',
      '-home-USER-projects-spotter-worktrees-spotter-fum',
      '-home-marco-projects-spotter',
      '-home-marco-projects-spotter',
      '-home-marco-projects-spotter',
      '-path-to-Demo',
      '-path-to-Demo',
    ]);
    expect(fromConfig[1]!.relPath).toMatch(/subagents\/agent-a7be2f0\.jsonl$/);
  });

  it('notes symlink loops, dangling links and symlinked duplicates instead of failing', async () => {
    const root = config({ [`${SLUG}/${SID}.jsonl`]: transcript });
    const projects = join(root, 'projects');
    symlinkSync(join(projects, 'loop'), join(projects, 'loop'));
    symlinkSync(join(projects, 'missing-target'), join(projects, 'dangling'));
    symlinkSync(join(projects, SLUG), join(projects, 'zz-alias'));
    // A transcript link to a deleted log is still listed: the pipeline reports it unreadable.
    const gone = 'aaaaaaaa-2222-4333-8444-555555555555';
    symlinkSync(join(root, 'deleted.jsonl'), join(projects, SLUG, `${gone}.jsonl`));
    const files = await claudeCode.discover(root);
    expect(files.map((f) => f.relPath)).toEqual([`projects/${SLUG}/${SID}.jsonl`, `projects/${SLUG}/${gone}.jsonl`]);
    expect(files[0]!.notes?.map((n) => [n.kind, n.file])).toEqual([
      ['broken_symlink', 'projects/dangling'],
      ['symlink_loop', 'projects/loop'],
      ['duplicate_folder', 'projects/zz-alias'],
    ]);
  });

  it('keeps a line too large to parse as a generic event in its session', async () => {
    const huge = assistantLine('a1', 'u1', 2, { msg: 'msg_big', req: 'r' }, [text('x'.repeat(HUGE_LINE_BYTES + 10))], { output_tokens: 1 });
    const root = config({ [`${SLUG}/${SID}.jsonl`]: [userLine('u1', null, 1, 'paste'), huge] });
    writeFileSync(join(root, 'projects', SLUG, 'notes.txt'), 'not a transcript');
    const r = await runImporter(claudeCode, root);
    const e = r.sessions.get(SID)!.events.find((x) => x.lineNumber === 2)!;
    expect(e).toMatchObject({ type: 'assistant', kind: 'other', ids: { message: 'msg_big' }, tsKey: '2026-01-01T00:00:01.000000000Z' });
    expect(e.attrs.huge).toBe(true);
    expect(r.defects.some((d) => d.kind === 'oversized_line' && d.line === 2)).toBe(true);
  });
});
