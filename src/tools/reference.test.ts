import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderToolReference } from './reference.js';
import { TOOLS } from './registry.js';

describe('docs/tools.md', () => {
  it('is what the registry renders (run `npm run docs` after changing a tool)', () => {
    const file = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'tools.md'), 'utf8');
    expect(file).toBe(renderToolReference());
  });

  it('documents every parameter of every tool', () => {
    const text = renderToolReference();
    for (const t of TOOLS) expect(text).toContain(`## ${t.name}`);
    expect(text).toContain('| `session_id` |');
    expect(text).toContain('| `max_bytes` |');
  });
});
