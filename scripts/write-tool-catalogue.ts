// Run by `npm run build` after tsc: writes dist/src/tools/tool-catalogue.json, the tool list and
// schemas `hindsight tools` prints, and dist/src/tools/tool-commands.json, every tool's command
// line (flags, help) the CLI parses with — both without loading every tool (src/tools/catalogue.ts).

import { statSync, writeFileSync } from 'node:fs';
import { CATALOGUE_PATH, COMMANDS_PATH, REGISTRY_PATH, type Catalogue, type CommandCatalogue } from '../src/tools/catalogue.js';
import { describeCommands, describeTools } from '../src/tools/describe-tools.js';

const registry_mtime_ms = statSync(REGISTRY_PATH).mtimeMs;
const tools = describeTools().tools;
const catalogue: Catalogue = { registry_mtime_ms, tools };
const commands: CommandCatalogue = { registry_mtime_ms, commands: describeCommands(tools) };
writeFileSync(CATALOGUE_PATH, `${JSON.stringify(catalogue)}\n`);
writeFileSync(COMMANDS_PATH, `${JSON.stringify(commands)}\n`);
