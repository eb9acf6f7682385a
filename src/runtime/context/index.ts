// The context budget (seed §7), as the session uses it: the budget and its ledger, the preflight
// check (prepareModelMessages), and the pieces it is made of for callers that need one alone.

export {
  CONTEXT_MANAGEMENT_MODES,
  DEFAULT_CONTEXT_BUDGET,
  effectiveInputLimit,
  resolveContextBudget,
  TokenLedger,
  type ContextBudgetSettings,
  type ContextManagementMode,
  type ResolvedContextBudget,
} from './budget.js';
export { assembleModelMessages, type AssemblyResult, type AssemblyStats } from './assembly.js';
export { compactMessagesMultiStage, type CompactionResult, type CompactionStage } from './compaction.js';
export { applyDeterministicCompaction, compactToolOutput } from './deterministic.js';
export { adjustKeepFromForToolIntegrity, findPairingProblems, isProtocolSafeCompactionBoundary, repairToolPairing } from './protocol.js';
export { prepareModelMessages, type PreparedRequest } from './request.js';
export { buildCompactionSummary } from './summary.js';
