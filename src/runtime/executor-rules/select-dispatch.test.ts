// The executor rules of the classify fix (seed control-plane-classify-fix §6): the six tests by the
// seed's names, edge cases of name matching and arguments, and a real Control Plane exchange.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers.js';
import type { ToolCallRequest } from '../model/chat.js';
import { isOutputJsonName, selectDispatch } from './select-dispatch.js';

const CLASSIFY = { speech_act: 'greeting', ambiguity: 'low' };

const call = (name: string, args: Record<string, unknown> | string = {}, id = `call-${name}`): ToolCallRequest => ({ id, name, arguments: args });

/**
 * One executor step as the session runs it: the rules pick the calls, a dispatcher runs each, and
 * the step either completes the turn (state completed, its output) or continues.
 */
function runStep(toolCalls: ToolCallRequest[], toolsAllowed: string[] | undefined, content: string | null = null) {
  const executed: { name: string; arguments: unknown }[] = [];
  const decision = selectDispatch({ toolCalls, content, toolsAllowed });
  for (const c of decision.dispatch) executed.push({ name: c.name, arguments: c.arguments });
  return {
    state: decision.done ? 'completed' : 'continue',
    outputResult: decision.structuredOutput,
    finalContent: decision.finalContent,
    executed,
    decision,
  };
}

describe('executor rules (seed §6)', () => {
  it('test_output_json_intercepted_as_structured_output', () => {
    const step = runStep([call('output_json', CLASSIFY)], undefined);
    expect(step.state).toBe('completed');
    expect(step.executed).toEqual([]);
    expect(step.outputResult).toMatchObject({ speech_act: 'greeting', ambiguity: 'low' });
    expect(step.decision.intercepted).toBe(1);
  });

  it('test_output_json_payload_becomes_output_result', () => {
    const step = runStep([call('output_json', CLASSIFY)], []);
    expect(step.outputResult).toEqual({ speech_act: 'greeting', ambiguity: 'low' });
    expect(JSON.parse(step.finalContent!)).toEqual({ speech_act: 'greeting', ambiguity: 'low' });
  });

  it('test_output_json_ignored_when_in_tools_allowed', () => {
    const step = runStep([call('output_json', CLASSIFY)], ['output_json']);
    expect(step.executed).toEqual([{ name: 'output_json', arguments: CLASSIFY }]);
    expect(step.outputResult).toBeUndefined();
    expect(step.decision.intercepted).toBe(0);
    expect(step.state).toBe('continue');
  });

  it('test_output_json_with_real_tools_coexist', () => {
    const step = runStep([call('output_json', CLASSIFY), call('list_packages')], ['list_packages']);
    expect(step.outputResult).toEqual(CLASSIFY);
    expect(step.executed).toEqual([{ name: 'list_packages', arguments: {} }]);
    // A real tool remains: the loop goes on.
    expect(step.state).toBe('continue');
  });

  it('test_tools_allowed_filter_restored', () => {
    const step = runStep([call('t1', { a: 1 }), call('t2'), call('read_file', { path: 'x' })], ['t1']);
    expect(step.executed).toEqual([{ name: 't1', arguments: { a: 1 } }]);
    expect(step.decision.filtered).toEqual(['t2', 'read_file']);
  });

  it('test_empty_tools_allowed_blocks_all_dispatch', () => {
    const step = runStep([call('t1'), call('list_packages')], [], 'plain answer');
    expect(step.executed).toEqual([]);
    expect(step.state).toBe('completed');
    expect(step.finalContent).toBe('plain answer');
    expect(step.decision.filtered).toEqual(['t1', 'list_packages']);
  });
});

describe('executor rules: edge cases', () => {
  it('matches the output_json name defensively, and nothing else', () => {
    for (const name of ['output_json', 'OUTPUT_JSON', ' output_json ', 'output-json', 'outputJson', 'functions.output_json', 'Functions.OutputJson', 'outputjson']) {
      expect(isOutputJsonName(name), name).toBe(true);
    }
    for (const name of ['output_json_x', 'json_output', 'output', 'my.output_json', 'output__json', '']) {
      expect(isOutputJsonName(name), name).toBe(false);
    }
  });

  it('removes every output_json call and keeps the first one\'s input', () => {
    const d = selectDispatch({
      toolCalls: [call('outputJson', { n: 1 }, 'a'), call('t1', {}, 'b'), call('functions.output_json', { n: 2 }, 'c')],
      content: 'ignored',
      toolsAllowed: ['t1'],
    });
    expect(d.structuredOutput).toEqual({ n: 1 });
    expect(d.finalContent).toBe('{"n":1}');
    expect(d.intercepted).toBe(2);
    expect(d.dispatch.map((c) => c.id)).toEqual(['b']);
    expect(d.done).toBe(false);
  });

  it('reads arguments given as a JSON string', () => {
    const d = selectDispatch({
      toolCalls: [call('output_json', '{"speech_act":"greeting","ambiguity":"low"}'), call('t1', '{"path":"a.txt"}'), call('t1', 'not json', 'raw')],
      content: null,
      toolsAllowed: ['t1'],
    });
    expect(d.structuredOutput).toEqual(CLASSIFY);
    expect(d.dispatch[0]!.arguments).toEqual({ path: 'a.txt' });
    // Unreadable arguments stay text: the executor reports them as the call's error.
    expect(d.dispatch[1]!.arguments).toBe('not json');
  });

  it('keeps an output_json string that is not JSON as the structured text', () => {
    const d = selectDispatch({ toolCalls: [call('output_json', 'greeting')], content: null, toolsAllowed: [] });
    expect(d.structuredOutput).toBe('greeting');
    expect(d.finalContent).toBe('"greeting"');
  });

  it('an absent tools_allowed dispatches nothing, and a response without calls finishes with its content', () => {
    expect(selectDispatch({ toolCalls: [call('bash', { command: 'ls' })], content: 'x', toolsAllowed: null })).toMatchObject({
      dispatch: [],
      filtered: ['bash'],
      done: true,
      finalContent: 'x',
    });
    expect(selectDispatch({ toolCalls: [], content: 'the answer', toolsAllowed: ['t1'] })).toMatchObject({
      dispatch: [],
      filtered: [],
      done: true,
      finalContent: 'the answer',
      structuredOutput: undefined,
      intercepted: 0,
    });
  });

  it('treats output_json as an ordinary tool when tools_allowed lists it under another spelling', () => {
    const d = selectDispatch({ toolCalls: [call('output_json', CLASSIFY)], content: null, toolsAllowed: ['outputJson', 'output_json'] });
    expect(d.intercepted).toBe(0);
    expect(d.dispatch.map((c) => c.name)).toEqual(['output_json']);
  });

  it('does not change the calls it was given', () => {
    const calls = [call('t1', '{"a":1}')];
    selectDispatch({ toolCalls: calls, content: null, toolsAllowed: ['t1'] });
    expect(calls[0]!.arguments).toBe('{"a":1}');
  });
});

describe('a real Control Plane classify exchange', () => {
  // The governance ledger records each HO1 exchange; classify exchanges ended with finish_reason
  // tool_use while no tools were offered: the structured output came back as an output_json call.
  const ledger = join(FIXTURES, 'control-plane', 'normal', 'HOT', 'ledger', 'governance.jsonl');
  const exchanges = readFileSync(ledger, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event_type: string; metadata: Record<string, unknown> })
    .filter((e) => e.event_type === 'EXCHANGE' && e.metadata.finish_reason === 'tool_use' && e.metadata.tools_offered === 0);

  it('finds such exchanges in the fixture', () => {
    expect(exchanges.length).toBeGreaterThan(0);
  });

  it('turns the response into the JSON result, without dispatching and without another turn', () => {
    const exchange = exchanges[0]!;
    const response = exchange.metadata.response as string;
    const payload = JSON.parse(response) as Record<string, unknown>;
    // As the Anthropic client hands it over: the tool_use block's input as arguments (and, as
    // text, the serialised copy some providers add). Also as a raw JSON string.
    for (const args of [payload, response]) {
      const d = selectDispatch({ toolCalls: [call('output_json', args, 'toolu_01')], content: response, toolsAllowed: [] });
      expect(d.done).toBe(true);
      expect(d.dispatch).toEqual([]);
      expect(d.structuredOutput).toEqual(payload);
      expect(JSON.parse(d.finalContent!)).toEqual(payload);
      expect(payload).toHaveProperty('speech_act');
    }
  });

  it('every such exchange completes the same way', () => {
    for (const e of exchanges) {
      const payload = JSON.parse(e.metadata.response as string) as unknown;
      const d = selectDispatch({ toolCalls: [call('output_json', payload as Record<string, unknown>)], content: null, toolsAllowed: [] });
      expect(d.done).toBe(true);
      expect(d.structuredOutput).toEqual(payload);
    }
  });
});
