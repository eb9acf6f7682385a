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
  'src/surfaces/access/tokens/token-store.test.ts',
];

// Slow by design (each spends most of its time on a long corpus or a fault loop).
const SLOW = ['src/runtime/parsers/streaming.test.ts', 'test/deep-json.test.ts'];

// One smoke per surface.
const SURFACE_SMOKES = ['test/e2e/cli.test.ts', 'test/e2e/mcp.test.ts', 'test/e2e/http.test.ts', 'test/e2e/web.test.ts'];

// Spread, not mergeConfig: merging would concatenate `include` with the whole suite's.
export default defineConfig({
  test: {
    ...base.test,
    include: ['src/**/*.test.ts', 'test/*.test.ts', ...SURFACE_SMOKES],
    exclude: [...BOTH_ENGINES, ...SLOW, 'node_modules/**', 'dist/**'],
  },
});
