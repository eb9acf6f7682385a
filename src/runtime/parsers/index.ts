// The built-in parsers, registered once (seed §5: ensureParsersRegistered). Order matters only
// for duplicate ids: the first registration wins. One line per parser.

import { deepseekV3 } from './formats/deepseek-v3.js';
import { deepseekV31 } from './formats/deepseek-v31.js';
import { generic } from './formats/generic.js';
import { gigachat3 } from './formats/gigachat3.js';
import { glm47 } from './formats/glm47.js';
import { granite20bFc } from './formats/granite-20b-fc.js';
import { hunyuanA13b } from './formats/hunyuan-a13b.js';
import { internlm } from './formats/internlm.js';
import { jamba } from './formats/jamba.js';
import { longcat } from './formats/longcat.js';
import { olmo3 } from './formats/olmo3.js';
import { openai } from './formats/openai.js';
import { functiongemma } from './formats/functiongemma.js';
import { glm45 } from './formats/glm45.js';
import { granite } from './formats/granite.js';
import { granite4 } from './formats/granite4.js';
import { hermes } from './formats/hermes.js';
import { kimiK2 } from './formats/kimi-k2.js';
import { llama3Json } from './formats/llama3-json.js';
import { llama4Pythonic } from './formats/llama4-pythonic.js';
import { minimax } from './formats/minimax.js';
import { mistral } from './formats/mistral.js';
import { pythonic } from './formats/pythonic.js';
import { qwen3Xml } from './formats/qwen3-xml.js';
import { step3 } from './formats/step3.js';
import { step3p5 } from './formats/step3p5.js';
import { xlam } from './formats/xlam.js';
import { ParserRegistry } from './registry.js';
import type { ParserDefinition } from './types.js';

export const BUILT_IN_PARSERS: readonly ParserDefinition[] = [
  qwen3Xml,
  hermes,
  step3,
  step3p5,
  functiongemma,
  glm45,
  llama3Json,
  mistral,
  xlam,
  granite,
  granite4,
  minimax,
  kimiK2,
  pythonic,
  llama4Pythonic,
  deepseekV3,
  olmo3,
  glm47,
  gigachat3,
  granite20bFc,
  jamba,
  internlm,
  hunyuanA13b,
  longcat,
  openai,
  deepseekV31,
  generic,
];

let registry: ParserRegistry | null = null;

/** The registry of built-in parsers, filled on first use and never again. */
export function builtInParsers(): ParserRegistry {
  if (!registry) {
    const r = new ParserRegistry();
    for (const def of BUILT_IN_PARSERS) r.register(def);
    registry = r;
  }
  return registry;
}
