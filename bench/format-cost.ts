// What a format and a tool cost in code, now and before the redesign (issue 13): lines in a format's
// folder, files outside the format folders that name a format id (each one a place a new format
// would have to touch), lines per tool folder, and files outside a tool's folder that name the tool.
// "Before" is read from git at BEFORE_COMMIT (the last commit before src/formats/ existed), so both
// figures come from the same run; without git history the before figures are left out with a note.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Figure } from './figure.js';
import { FORMATS } from '../src/formats/registry.js';

/** The last commit with src/importers/ (before the one-folder-per-format layout). */
export const BEFORE_COMMIT = '4dd815c';
const OLD_FORMATS = ['control-plane', 'claude-code', 'amplifier'];

function sourceFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|js)$/.test(e.name) && !/\.test\.ts$|test-support|test-store|test-team/.test(e.name)) out.push(p);
  }
  return out;
}

const lineCount = (text: string): number => text.split('\n').filter((l) => l.trim() !== '').length;

function namesAny(text: string, ids: readonly string[]): boolean {
  return ids.some((id) => text.includes(`'${id}'`) || text.includes(`"${id}"`));
}

function git(repo: string, args: string[]): string | null {
  const r = spawnSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return r.status === 0 ? r.stdout : null;
}

/** Files (non-test sources under src/) at `commit`, with their text. */
function filesAt(repo: string, commit: string): Map<string, string> | null {
  const list = git(repo, ['ls-tree', '-r', '--name-only', commit, 'src']);
  if (list === null) return null;
  const out = new Map<string, string>();
  for (const path of list.split('\n')) {
    if (!/\.(ts|js)$/.test(path) || /\.test\.ts$|test-support|test-store|test-team/.test(path)) continue;
    const text = git(repo, ['show', `${commit}:${path}`]);
    if (text !== null) out.set(path, text);
  }
  return out;
}

function toolNames(files: Map<string, string>): string[] {
  const names = new Set<string>();
  for (const [path, text] of files) {
    if (!/^src\/tools\/[a-z-]+\/index\.ts$/.test(path)) continue;
    const m = /name:\s*'([a-z_]+)'/.exec(text);
    if (m) names.add(m[1]!);
  }
  return [...names];
}

interface Costs {
  filesNamingAFormat: number;
  formatLines: Record<string, number>;
  toolLinesMedian: number;
  filesNamingAToolMedian: number;
}

function costs(files: Map<string, string>, formatDir: string, formats: readonly string[]): Costs {
  let naming = 0;
  const formatLines: Record<string, number> = {};
  for (const [path, text] of files) {
    const inFormats = path.startsWith(`${formatDir}/`);
    if (!inFormats && path !== 'src/formats/registry.ts' && namesAny(text, formats)) naming++;
    for (const f of formats) if (path.startsWith(`${formatDir}/${f}/`)) formatLines[f] = (formatLines[f] ?? 0) + lineCount(text);
  }
  const tools = toolNames(files);
  const toolLines: number[] = [];
  const toolMentions: number[] = [];
  for (const t of tools) {
    const folder = `src/tools/${t.replace(/_/g, '-')}/`;
    let lines = 0;
    let mentions = 0;
    for (const [path, text] of files) {
      if (path.startsWith(folder)) lines += lineCount(text);
      else if (text.includes(`'${t}'`) || text.includes(`"${t}"`) || text.includes(`\`${t}\``)) mentions++;
    }
    toolLines.push(lines);
    toolMentions.push(mentions);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return { filesNamingAFormat: naming, formatLines, toolLinesMedian: median(toolLines), filesNamingAToolMedian: median(toolMentions) };
}

export function measureFormatCost(repo: string): Figure[] {
  const nowFiles = new Map<string, string>();
  for (const p of sourceFiles(join(repo, 'src'))) nowFiles.set(relative(repo, p).split('\\').join('/'), readFileSync(p, 'utf8'));
  const now = costs(nowFiles, 'src/formats', FORMATS);
  const beforeFiles = filesAt(repo, BEFORE_COMMIT);
  const before = beforeFiles ? costs(beforeFiles, 'src/importers', OLD_FORMATS) : null;
  const figures: Figure[] = [
    {
      figure: 'format_cost.files_outside_format_folders_naming_a_format',
      value: now.filesNamingAFormat,
      unit: 'files',
      ...(before ? { baseline: before.filesNamingAFormat, baseline_unit: `files at ${BEFORE_COMMIT}`, ratio: +(now.filesNamingAFormat / Math.max(1, before.filesNamingAFormat)).toFixed(3) } : { note: 'no git history: before figure left out' }),
      target: '0 (a new format touches its folder and one registry line)',
    },
  ];
  for (const f of FORMATS) {
    const lines = now.formatLines[f] ?? 0;
    const old = before?.formatLines[f];
    figures.push({
      figure: `format_cost.${f}.lines_in_folder`,
      value: lines,
      unit: 'lines',
      ...(old !== undefined ? { baseline: old, baseline_unit: `lines at ${BEFORE_COMMIT}`, ratio: +(lines / Math.max(1, old)).toFixed(3) } : { note: 'new format' }),
    });
  }
  figures.push({
    figure: 'format_cost.tool_lines_median',
    value: now.toolLinesMedian,
    unit: 'lines',
    ...(before ? { baseline: before.toolLinesMedian, baseline_unit: `lines at ${BEFORE_COMMIT}`, ratio: +(now.toolLinesMedian / Math.max(1, before.toolLinesMedian)).toFixed(3) } : {}),
  });
  figures.push({
    figure: 'format_cost.files_outside_a_tool_naming_it_median',
    value: now.filesNamingAToolMedian,
    unit: 'files',
    ...(before ? { baseline: before.filesNamingAToolMedian, baseline_unit: `files at ${BEFORE_COMMIT}`, ratio: +(now.filesNamingAToolMedian / Math.max(1, before.filesNamingAToolMedian)).toFixed(3) } : {}),
    note: 'places that spell a tool name outside its folder (registry, CLI, docs generators, tests excluded)',
  });
  return figures;
}

if (process.argv[1] && statSync(process.argv[1]).isFile() && process.argv[1].endsWith('format-cost.js')) {
  console.log(JSON.stringify(measureFormatCost(join(import.meta.dirname, '..', '..')), null, 1));
}
