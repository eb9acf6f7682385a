// Fake model providers on loopback for tests (README.md here): an OpenAI-compatible server and an
// Anthropic Messages server, replaying scripted steps in the real wire formats.

export { startFakeAnthropic, renderAnthropicJson, renderAnthropicStream } from './anthropic.js';
export { startFakeOpenAI, renderOpenAIJson, renderOpenAIStream } from './openai.js';
export { recordedFixtures, recordedSteps, PROVIDER_STREAMS_DIR, type RecordedFixture } from './recorded.js';
export type {
  FakeHang,
  FakeRaw,
  FakeReply,
  FakeScript,
  FakeServer,
  FakeServerOptions,
  FakeStep,
  FakeToolCall,
  FakeUsage,
  RecordedRequest,
} from './script.js';
