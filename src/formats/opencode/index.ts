// The OpenCode importer: ~/.local/share/opencode (or $OPENCODE_DATA_DIR): the opencode.db database
// of OpenCode 1.x, read-only, each session as row sources; and the storage/ documents older
// versions wrote, those the database also holds kept as evidence only.

import { defineImporter } from '../importer.js';
import { discoverOpenCode } from './discover.js';
import { createOpenCodeParser } from './parser.js';
import { openCodeProfile } from './profile.js';
import { looksLikeOpenCode, openCodeDefaultRoots } from './roots.js';
import { summarizeOpenCode } from './summarize.js';

/**
 * @example const result = await runImporter(openCode, `${os.homedir()}/.local/share/opencode`);
 */
export const openCode = defineImporter({
  format: 'opencode',
  description:
    'OpenCode sessions (~/.local/share/opencode or $OPENCODE_DATA_DIR): opencode.db read-only (session, message and part rows; credential tables never read) and the older storage/ JSON documents.',
  layout: 'an OpenCode data folder (opencode.db or storage/)',
  detect: looksLikeOpenCode,
  defaultRoots: openCodeDefaultRoots,
  discover: discoverOpenCode,
  createParser: createOpenCodeParser,
  summarize: summarizeOpenCode,
  profile: openCodeProfile,
});
