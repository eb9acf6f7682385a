// Run by `npm run build` after tsc: writes dist/src/tools/tool-catalogue.json, the tool list and
// schemas `hindsight tools` prints without loading every tool (src/tools/catalogue.ts).

import { statSync, writeFileSync } from 'node:fs';
import { CATALOGUE_PATH, REGISTRY_PATH, type Catalogue } from '../src/tools/catalogue.js';
import { describeTools } from '../src/tools/describe-tools.js';

const catalogue: Catalogue = { registry_mtime_ms: statSync(REGISTRY_PATH).mtimeMs, tools: describeTools().tools };
writeFileSync(CATALOGUE_PATH, `${JSON.stringify(catalogue)}\n`);
