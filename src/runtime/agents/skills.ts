// Skills: markdown files whose text is added to the system prompt — the user's own in
// $XDG_CONFIG_HOME/hindsight/skills/ and the workspace's in .hindsight/skills/ (the workspace's win
// over a user skill of the same name, since they are closer to the task).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { programName } from '../../core/package-info.js';

export interface Skill {
  name: string;
  path: string;
  source: 'user' | 'workspace';
  /** The first heading or first line, for `hindsight skills`. */
  summary: string;
  text: string;
}

/** Skills larger than this are cut: a skill is guidance, not a document dump into every request. */
const MAX_SKILL_BYTES = 16 * 1024;

export function skillFolders(env: NodeJS.ProcessEnv, workspace: string): { user: string; workspace: string } {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return { user: join(config, programName(), 'skills'), workspace: join(workspace, '.hindsight', 'skills') };
}

function readFolder(dir: string, source: Skill['source']): Skill[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.md')).sort();
  } catch {
    return [];
  }
  const skills: Skill[] = [];
  for (const file of names) {
    const path = join(dir, file);
    try {
      if (!statSync(path).isFile()) continue;
      let text = readFileSync(path, 'utf8');
      if (Buffer.byteLength(text) > MAX_SKILL_BYTES) text = `${Buffer.from(text).subarray(0, MAX_SKILL_BYTES).toString('utf8')}\n[skill cut at 16 KB]`;
      const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
      skills.push({ name: basename(file, '.md'), path, source, summary: first.replace(/^#+\s*/, '').slice(0, 120), text });
    } catch {
      // An unreadable skill file is skipped; `hindsight skills` lists what was read.
    }
  }
  return skills;
}

export function loadSkills(env: NodeJS.ProcessEnv, workspace: string): Skill[] {
  const dirs = skillFolders(env, workspace);
  const byName = new Map<string, Skill>();
  for (const s of readFolder(dirs.user, 'user')) byName.set(s.name, s);
  for (const s of readFolder(dirs.workspace, 'workspace')) byName.set(s.name, s);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The system prompt with the skills appended, each under its own heading. */
export function withSkills(systemPrompt: string, skills: readonly Skill[]): string {
  if (skills.length === 0) return systemPrompt;
  return `${systemPrompt}\n\n# Skills\n${skills.map((s) => `\n## ${s.name}\n${s.text.trim()}`).join('\n')}`;
}
