// The OpenTelemetry names the trace export writes: the GenAI semantic conventions v1.41.0
// (development status; the names @opentelemetry/semantic-conventions 1.45.0 ships in its
// `incubating` entry, now kept in open-telemetry/semantic-conventions-genai), and Hindsight's own
// `hindsight.*` attributes where the conventions have no name. Written out here rather than
// imported: the incubating module is ~1 MB of constants to load for thirty strings, and
// semconv.test.ts checks every name against the package.

export const SEMCONV_VERSION = '1.41.0';

export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentId: 'gen_ai.agent.id',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  /** Every input token, cached ones included (the conventions' meaning since v1.40). */
  inputTokens: 'gen_ai.usage.input_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  /** Every output token, reasoning ones included. */
  outputTokens: 'gen_ai.usage.output_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = { invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool' } as const;

/** General attributes the export sets beside the GenAI ones. */
export const GENERAL = { errorType: 'error.type', serviceName: 'service.name', sessionId: 'session.id' } as const;

/** Hindsight's own attributes: what a trace viewer needs to find the evidence again. */
export const HINDSIGHT = {
  format: 'hindsight.session.format',
  status: 'hindsight.session.status',
  kind: 'hindsight.session.kind',
  project: 'hindsight.project',
  projectPath: 'hindsight.project.path',
  evidenceFile: 'hindsight.evidence.file',
  evidenceLine: 'hindsight.evidence.line',
} as const;
