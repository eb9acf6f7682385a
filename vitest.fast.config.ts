// The fast tier (`npm run test:fast`) for the edit–test loop: unit tests on SQLite only, plus one
// end-to-end smoke per surface (CLI, MCP, HTTP, viewer). `npm test` stays the whole suite (both
// engines, crash and sync fault tests, the package install, ccusage parity); CI runs that one.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// PostgreSQL engine, sync and team tests: the whole suite covers them on both engines.
const BOTH_ENGINES = [
  'src/store/conformance/**',
  'src/store/postgres/**',
  'src/sync/**',
  'src/surfaces/access/scope/scope-tools.test.ts',
  'src/surfaces/access/scope/scoped-store.test.ts',
  'src/surfaces/access/tokens/token-store.test.ts',
];

// Slow by design (each spends most of its time on a long corpus, a fault loop, a killed child
// process, a worker bundle or a store migrated across versions).
const SLOW = [
  'src/runtime/parsers/streaming.test.ts',
  'test/deep-json.test.ts',
  'src/ingest/bad-input.test.ts',
  'src/formats/opencode/crash.test.ts',
  'src/store/usage-calls.test.ts',
  'src/store/usage-call-days.test.ts',
  'src/ingest/parse-workers.test.ts',
  'src/ingest/usage-pass-split.test.ts',
  'src/runtime/recording/recorder.test.ts',
  'src/surfaces/cli/refresh.test.ts',
  'src/surfaces/cli/otel-command.test.ts',
  'src/surfaces/http/kept-answers.test.ts',
];

// One smoke per surface, the short ones: the built CLI (what each command loads), MCP over stdio with
// the SDK client, the viewer in chromium. HTTP is covered in-process by src/surfaces/http/*.test.ts.
const SURFACE_SMOKES = ['test/e2e/cli-startup.test.ts', 'test/e2e/mcp-size.test.ts', 'test/e2e/web-errors.test.ts'];

// Spread, not mergeConfig: merging would concatenate `include` with the whole suite's.
export default defineConfig({
  test: {
    ...base.test,
    include: ['src/**/*.test.ts', 'test/*.test.ts', ...SURFACE_SMOKES],
    exclude: [...BOTH_ENGINES, ...SLOW, 'node_modules/**', 'dist/**'],
    // Both cores: these tests share nothing (temp folders, their own stores, ephemeral ports).
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  },
});
