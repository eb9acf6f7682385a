// Every tool in the registry can be loaded on its own by name (the folder convention the CLI relies
// on to load one tool), and nothing else answers to a name.

import { describe, expect, it } from 'vitest';
import { TOOLS } from './registry.js';
import { loadTool, toolModule } from './tool-loader.js';

describe('loadTool', () => {
  it.each(TOOLS.map((t) => [t.name, t] as const))('%s loads from its own folder as the registry holds it', async (name, tool) => {
    expect(await loadTool(name), `${name} should be defined in src/tools/${toolModule(name).slice(2, -3)}.ts`).toBe(tool);
  });

  it('answers undefined for a name no folder defines, and for names that are not tool names', async () => {
    expect(await loadTool('no_such_tool')).toBeUndefined();
    expect(await loadTool('../registry')).toBeUndefined();
    expect(await loadTool('envelope')).toBeUndefined();
  });
});
