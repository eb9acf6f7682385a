// The Gemini CLI importer: ~/.gemini/tmp/<project>/chats/, one chat file per session (JSONL, or
// a JSON document from older CLIs), sub-agents in chats/<parentSessionId>/.

import { defineImporter } from '../importer.js';
import { createChatParser } from './chat-parser.js';
import { geminiDefaultRoots } from './default-roots.js';
import { discoverGemini } from './discover.js';
import { createDocumentParser } from './document-parser.js';
import { geminiProfile } from './profile.js';
import { looksLikeGemini } from './root-shape.js';
import { summarizeGemini } from './summarize.js';

/**
 * @example const result = await runImporter(gemini, `${os.homedir()}/.gemini`);
 */
export const gemini = defineImporter({
  format: 'gemini',
  description:
    'Gemini CLI chats (~/.gemini, or $GEMINI_DATA_DIR naming its tmp/ folder): tmp/<project>/chats/session-*.jsonl (or .json from older CLIs), one session per file; sub-agents in chats/<session>/.',
  layout: 'a Gemini CLI folder (tmp/<project>/chats/)',
  detect: looksLikeGemini,
  defaultRoots: geminiDefaultRoots,
  discover: discoverGemini,
  createParser(file, options) {
    return file.kind === 'document' ? createDocumentParser() : createChatParser(options.resumeState);
  },
  summarize: summarizeGemini,
  profile: geminiProfile,
});
