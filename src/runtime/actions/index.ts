// The actions layer's public surface: the executor, its handlers' specs, the registry's specs,
// and the ledger of what the model has read.

export { ActionExecutor, BASH_REPEAT_LIMIT, DEFAULT_HANDLER_LIMITS, type ActionExecutorOptions } from './action-executor.js';
export { createDefaultHandlerMap, handlerToolSpecs } from './handler-map.js';
export { InspectionLedger, type InspectedRange } from './inspection-ledger.js';
export { findTool, registryToolNames, registryToolSpecs } from './registry-fallback.js';
export type { ActionContext, ActionHandler, ActionResult, HandlerLimits, HandlerMap } from './types.js';
