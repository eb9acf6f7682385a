// Tool-call parser figures (issue 15, docs/parsers.md): non-streaming and streaming throughput per
// format family over a corpus built from the recorded vectors, the cost of one streamed delta, and
// the time for a 10 KB output. Baseline in the same run: JSON.parse of the same bytes (the texts
// as one JSON array of strings). Run alone with `node dist/bench/parser-bench.js`.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtInParsers } from '../src/runtime/parsers/index.js';
import { createToolCallStreamer, parseToolCalls } from '../src/runtime/parsers/pipeline.js';
import type { ParserFamily, ToolSchema } from '../src/runtime/parsers/types.js';
import { loadVectors, vectorText } from '../src/runtime/parsers/vector-corpus.js';
import type { Figure } from './figure.js';

interface Sample {
  parser: string;
  text: string;
  tools?: ToolSchema[];
}

/** Time `fn` over enough repetitions to last ~`ms` milliseconds; seconds per repetition. */
function timePer(fn: () => void, ms = 400): number {
  fn();
  let reps = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) fn();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (seconds * 1000 >= ms) return seconds / reps;
    reps *= 2;
  }
}

/** Token-sized deltas (4 characters, about what a model streams per step). */
function deltasOf(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function stream(sample: Sample, deltas: readonly string[]): void {
  const s = createToolCallStreamer(sample.parser, { tools: sample.tools });
  for (const d of deltas) s.push(d);
  s.finish();
}

/** A realistic 10 KB answer: prose, then three calls with long arguments, in the Hermes layout. */
export function tenKbOutput(): string {
  const prose = 'I looked at the failing test and the module it imports; the fix is to guard the empty case. '.repeat(40);
  const body = JSON.stringify({ path: 'src/module.ts', content: 'export function f(x: number) {\n  return x > 0 ? x : 0;\n}\n'.repeat(30) });
  const call = (i: number) => `<tool_call>{"name": "write_file_${i}", "arguments": ${body}}</tool_call>\n`;
  return (prose + call(1) + call(2) + call(3)).slice(0, 10_240).padEnd(10_240, ' ');
}

/** `vectorDir`: ../shared/fixtures/tool-calls of the repository (run-bench passes it from dist/). */
export function measureParsers(vectorDir: string): Figure[] {
  const registry = builtInParsers();
  const byFamily = new Map<ParserFamily, Sample[]>();
  for (const v of loadVectors(vectorDir)) {
    const family = registry.get(v.parser).family;
    const list = byFamily.get(family) ?? [];
    list.push({ parser: v.parser, text: vectorText(v), tools: v.tools });
    byFamily.set(family, list);
  }
  const figures: Figure[] = [];
  for (const [family, samples] of [...byFamily].sort()) {
    const bytes = samples.reduce((n, s) => n + Buffer.byteLength(s.text), 0);
    const json = JSON.stringify(samples.map((s) => s.text));
    const baseline = bytes / 1e6 / timePer(() => JSON.parse(json));
    const whole = bytes / 1e6 / timePer(() => {
      for (const s of samples) parseToolCalls(s.parser, s.text, { tools: s.tools });
    });
    const split = samples.map((s) => deltasOf(s.text));
    const streamed = bytes / 1e6 / timePer(() => samples.forEach((s, i) => stream(s, split[i]!)));
    const baseUnit = 'MB/s (JSON.parse of the same texts, same run)';
    figures.push(
      { figure: `parsers.${family}.nonstream_throughput`, value: +whole.toFixed(2), unit: 'MB/s', baseline: +baseline.toFixed(1), baseline_unit: baseUnit, ratio: +(whole / baseline).toFixed(3), note: `${samples.length} vectors, ${bytes} bytes` },
      { figure: `parsers.${family}.stream_throughput`, value: +streamed.toFixed(2), unit: 'MB/s', baseline: +baseline.toFixed(1), baseline_unit: baseUnit, ratio: +(streamed / baseline).toFixed(3), note: '4-character deltas' },
    );
  }
  const ten: Sample = { parser: 'hermes', text: tenKbOutput() };
  const tenDeltas = deltasOf(ten.text);
  const tenJson = JSON.stringify(ten.text);
  const tenBase = timePer(() => JSON.parse(tenJson));
  const tenWhole = timePer(() => parseToolCalls(ten.parser, ten.text));
  const tenStream = timePer(() => stream(ten, tenDeltas));
  figures.push(
    { figure: 'parsers.10kb_output_nonstream', value: +(tenWhole * 1000).toFixed(3), unit: 'ms', baseline: +(tenBase * 1000).toFixed(4), baseline_unit: 'ms (JSON.parse of the same bytes)', ratio: +(tenWhole / tenBase).toFixed(1), target: '< 1 ms' },
    { figure: 'parsers.10kb_output_stream', value: +(tenStream * 1000).toFixed(3), unit: 'ms', target: '< 1 ms', note: `${tenDeltas.length} deltas of 4 characters` },
    { figure: 'parsers.cost_per_delta', value: +((tenStream / tenDeltas.length) * 1e6).toFixed(3), unit: 'µs', target: '< 20 µs', note: 'the 10 KB Hermes output streamed in 4-character deltas' },
  );
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // From dist/bench/ the repository is two levels up.
  console.log(JSON.stringify(measureParsers(join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'tool-calls')), null, 2));
}
