// The real provider responses of ../shared/fixtures/provider-streams as raw fake-server steps, so
// that a client can be run against exactly what the providers sent. VCR cassettes (.yaml) are
// replayed from their extracted bodies in derived/ (the README there says how they were made);
// vercel/ai's .chunks.jsonl get their SSE framing back.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeRaw } from './script.js';

export const PROVIDER_STREAMS_DIR = join(import.meta.dirname, '../../../shared/fixtures/provider-streams');

const TOP_FOLDERS = ['openai', 'openai-compatible', 'anthropic', 'errors'] as const;

/** Bodies whose HTTP status the file does not store (the README names it). */
const STATUS_OF_BARE_BODIES: Record<string, number> = {
  'errors/vercel-ai__openai-insufficient_quota-body.json': 429,
};

export interface RecordedFixture {
  /** Path under provider-streams/, e.g. 'openai/simonw-llm__chat-stream-tool-call-usage.yaml'. */
  file: string;
  protocol: 'openai' | 'anthropic';
  /** One step per recorded response, in the recording's order. */
  steps: FakeRaw[];
}

function protocolOf(folder: string, name: string): 'openai' | 'anthropic' {
  if (folder === 'anthropic') return 'anthropic';
  if (folder === 'errors' && name.includes('anthropic')) return 'anthropic';
  return 'openai';
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };

function derivedSteps(folder: string, name: string): FakeRaw[] {
  const prefix = `${folder}__${name.replace(/\.yaml$/, '')}.`;
  const dir = join(PROVIDER_STREAMS_DIR, 'derived');
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .map((f) => {
      const m = /\.(\d+)\.(\d{3})\.(sse|json|parsed\.json)$/.exec(f);
      if (!m) throw new Error(`derived/${f}: expected <name>.<n>.<status>.(sse|json|parsed.json)`);
      return { n: Number(m[1]), status: Number(m[2]), sse: m[3] === 'sse', body: readFileSync(join(dir, f)) };
    })
    .sort((a, b) => a.n - b.n)
    .map((r) => ({ kind: 'raw' as const, status: r.status, headers: r.sse ? SSE : JSON_TYPE, body: new Uint8Array(r.body) }));
}

/** vercel/ai stores one chunk JSON per line with the SSE framing stripped; put it back. */
function framedChunks(text: string, protocol: 'openai' | 'anthropic'): string {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  if (protocol === 'anthropic') {
    return lines.map((l) => `event: ${(JSON.parse(l) as { type: string }).type}\ndata: ${l}\n\n`).join('');
  }
  return `${lines.map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`;
}

/** The recorded responses of one fixture file (a path under provider-streams/). */
export function recordedSteps(file: string): FakeRaw[] {
  const [folder, name] = file.split('/') as [string, string];
  const protocol = protocolOf(folder, name);
  const path = join(PROVIDER_STREAMS_DIR, file);
  if (name.endsWith('.yaml')) return derivedSteps(folder, name);
  if (name.endsWith('.sse')) return [{ kind: 'raw', status: 200, headers: SSE, body: new Uint8Array(readFileSync(path)) }];
  if (name.endsWith('.chunks.jsonl')) return [{ kind: 'raw', status: 200, headers: SSE, body: framedChunks(readFileSync(path, 'utf8'), protocol) }];
  if (name.endsWith('.json')) {
    return [{ kind: 'raw', status: STATUS_OF_BARE_BODIES[file] ?? 200, headers: JSON_TYPE, body: new Uint8Array(readFileSync(path)) }];
  }
  throw new Error(`${file}: no rule to replay this kind of file`);
}

/** Every fixture file of the four top folders (README.md aside), with its steps. */
export function recordedFixtures(): RecordedFixture[] {
  return TOP_FOLDERS.flatMap((folder) =>
    readdirSync(join(PROVIDER_STREAMS_DIR, folder))
      .sort()
      .map((name) => ({ file: `${folder}/${name}`, protocol: protocolOf(folder, name), steps: recordedSteps(`${folder}/${name}`) })),
  );
}
