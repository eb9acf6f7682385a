// `npm run docs`: rewrite docs/tools.md from the registry.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderToolReference } from '../src/tools/reference.js';

const target = resolve(import.meta.dirname, '..', '..', 'docs', 'tools.md');
writeFileSync(target, renderToolReference());
process.stdout.write(`wrote ${target}\n`);
