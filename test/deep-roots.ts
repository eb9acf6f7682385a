// A Claude Code root and a Control Plane root holding one JSON line nested `depth` levels deep
// (issue 12 item 4): every tool that returns payloads must answer for them without a stack overflow.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.js';
import { cp, writePlaneRoot } from './plane-root.js';

export const DEEP_CC_SESSION = '11111111-2222-3333-4444-555555555555';
export const DEEP_CP_SESSION = 'SES-DEEP0001';

const nested = (depth: number) => '{"a":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);

export function writeDeepRoots(depth: number): { claude: string; plane: string } {
  const claude = tempDir('hs-deep-cc-');
  const project = join(claude, 'projects', '-tmp-deep');
  mkdirSync(project, { recursive: true });
  const head = `"sessionId":"${DEEP_CC_SESSION}","cwd":"/tmp/deep","version":"2.1.0"`;
  writeFileSync(
    join(project, `${DEEP_CC_SESSION}.jsonl`),
    `{"type":"user",${head},"uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hello"}}\n` +
      `{"type":"user",${head},"uuid":"u2","parentUuid":"u1","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"deep"},"toolUseResult":${nested(depth)}}\n`,
  );
  const plane = writePlaneRoot(tempDir('hs-deep-cp-'), [cp.sessionStart(DEEP_CP_SESSION, 0), cp.turn(DEEP_CP_SESSION, 1, 'hello', 'hi', 1)]);
  // Written by hand: the test writer serialises recursively. Its hash does not chain (a finding), which is fine here.
  appendFileSync(
    join(plane, 'HO2/ledger/ho2m.jsonl'),
    `{"entry_id":"LED-00000099","event_type":"TURN_RECORDED","submission_id":"","decision":"","reason":"","prompts_used":[],"timestamp":"2026-02-17T14:30:05+00:00","previous_hash":"x","hash":"y","metadata":{"provenance":{"session_id":"${DEEP_CP_SESSION}"},"deep":${nested(depth)}}}\n`,
  );
  return { claude, plane };
}
