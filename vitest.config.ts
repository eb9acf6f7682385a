import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Both cores (vitest's default is one fewer than the CPUs: a single fork on 2 cores). Test
    // files share nothing: temp folders, their own SQLite files, a PostgreSQL schema each
    // (uniqueSchema), ephemeral ports.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
