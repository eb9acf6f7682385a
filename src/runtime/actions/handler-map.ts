// The executor's own tools, by the name the model calls them (seed §2's default handler map).

import type { ModelToolSpec } from '../model/chat.js';
import { bashHandler } from './handlers/bash.js';
import { editHandler } from './handlers/edit.js';
import { saveMemoryHandler, searchMemoryHandler } from './handlers/memory.js';
import { readHandler } from './handlers/read.js';
import { viewImageHandler } from './handlers/view-image.js';
import { writeHandler } from './handlers/write.js';
import type { ActionHandler, HandlerMap } from './types.js';

const DEFAULT_HANDLERS: readonly ActionHandler[] = [
  readHandler,
  editHandler,
  writeHandler,
  bashHandler,
  searchMemoryHandler,
  saveMemoryHandler,
  viewImageHandler,
] as readonly ActionHandler[];

/** A fresh map (callers may add or remove handlers without touching another executor's). */
export function createDefaultHandlerMap(): HandlerMap {
  return new Map(DEFAULT_HANDLERS.map((h) => [h.spec.name, h]));
}

/**
 * The model-facing specs of a handler map's tools (default: every default handler), in map order.
 *
 * @example handlerToolSpecs().map((s) => s.name) // ['read', 'edit', 'write', 'bash', 'search_memory', 'save_memory', 'view_image']
 */
export function handlerToolSpecs(map: HandlerMap = createDefaultHandlerMap()): ModelToolSpec[] {
  return [...map.values()].map((h) => h.spec);
}
