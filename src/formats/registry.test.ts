import { describe, expect, it } from 'vitest';
import { FORMATS, loadDefaultRootFinders, loadImporter } from './registry.js';

describe('loadDefaultRootFinders', () => {
  it('gives every format, in detection order, the very defaultRoots its importer has', async () => {
    const finders = await loadDefaultRootFinders();
    expect(finders.map((f) => f.format)).toEqual(FORMATS);
    for (const { format, defaultRoots } of finders) {
      expect(defaultRoots, format).toBe((await loadImporter(format)).defaultRoots);
    }
  });
});
