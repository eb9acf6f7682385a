import { describe, expect, it } from 'vitest';
import { EventBus, type HandlerErrorInfo } from './event-bus.js';
import { GUARDED_TOOLS, parseAllowFlag, permissionHook, PERMISSION_HOOK_NAME } from './permission-policy.js';
import { createRuntimeEventBus, RUNTIME_EVENT_NAMES, type RuntimeControls } from './runtime-events.js';

interface Events {
  ping: { n: number };
  pong: { text: string };
}
interface Controls {
  gate: { what: string };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('EventBus lifecycle events', () => {
  it('runs every handler of the event, then onAny handlers, and stops after unsubscribe', () => {
    const bus = new EventBus<Events>();
    const seen: string[] = [];
    const off = bus.on('ping', (p) => void seen.push(`a${p.n}`));
    bus.on('ping', (p) => void seen.push(`b${p.n}`));
    bus.on('pong', (p) => void seen.push(`pong ${p.text}`));
    bus.onAny((e) => void seen.push(`any ${e.name}`));
    bus.emit('ping', { n: 1 });
    off();
    bus.emit('ping', { n: 2 });
    bus.emit('pong', { text: 'x' });
    expect(seen).toEqual(['a1', 'b1', 'any ping', 'b2', 'any ping', 'pong x', 'any pong']);
  });

  it('isolates a throwing or rejecting handler and reports it', async () => {
    const errors: HandlerErrorInfo[] = [];
    const bus = new EventBus<Events>({ onHandlerError: (info) => errors.push(info) });
    const seen: number[] = [];
    bus.on('ping', () => {
      throw new Error('sync boom');
    });
    bus.on('ping', async () => {
      throw new Error('async boom');
    });
    bus.on('ping', (p) => void seen.push(p.n));
    bus.onAny(() => {
      throw new Error('any boom');
    });
    expect(() => bus.emit('ping', { n: 7 })).not.toThrow();
    await flush();
    expect(seen).toEqual([7]);
    expect(errors.map((e) => [e.event, (e.error as Error).message]).sort()).toEqual([
      ['ping', 'any boom'],
      ['ping', 'async boom'],
      ['ping', 'sync boom'],
    ]);
  });

  it('drops handler errors silently without onHandlerError, and survives a throwing reporter', async () => {
    const quiet = new EventBus<Events>();
    quiet.on('ping', () => {
      throw new Error('x');
    });
    expect(() => quiet.emit('ping', { n: 1 })).not.toThrow();
    const loud = new EventBus<Events>({
      onHandlerError: () => {
        throw new Error('reporter');
      },
    });
    const seen: number[] = [];
    loud.on('ping', () => {
      throw new Error('x');
    });
    loud.on('ping', (p) => void seen.push(p.n));
    expect(() => loud.emit('ping', { n: 2 })).not.toThrow();
    await flush();
    expect(seen).toEqual([2]);
  });

  it('destroy() removes every subscriber and refuses new ones', async () => {
    const bus = new EventBus<Events, Controls>();
    const seen: number[] = [];
    bus.on('ping', (p) => void seen.push(p.n));
    bus.onControl('gate', () => ({ allow: false, reason: 'no' }));
    bus.destroy();
    bus.emit('ping', { n: 1 });
    expect(seen).toEqual([]);
    expect(await bus.emitControl('gate', { what: 'x' })).toEqual({ allow: true });
    expect(bus.isDestroyed).toBe(true);
    expect(() => bus.on('ping', () => {})).toThrow(/destroyed/);
  });
});

describe('EventBus control hooks', () => {
  it('asks hooks in order and stops at the first refusal', async () => {
    const bus = new EventBus<Events, Controls>();
    const asked: string[] = [];
    bus.onControl('gate', () => (asked.push('first'), { allow: true }), 'first');
    bus.onControl('gate', async (p) => (asked.push('second'), p.what === 'bad' ? { allow: false, reason: 'bad thing' } : { allow: true }), 'second');
    bus.onControl('gate', () => (asked.push('third'), { allow: true }), 'third');
    expect(await bus.emitControl('gate', { what: 'good' })).toEqual({ allow: true });
    expect(asked).toEqual(['first', 'second', 'third']);
    asked.length = 0;
    expect(await bus.emitControl('gate', { what: 'bad' })).toEqual({ allow: false, reason: 'bad thing', blockedBy: 'second' });
    expect(asked).toEqual(['first', 'second']);
  });

  it('allows when no hook is registered, names an unnamed hook by its function, fails closed on a throw', async () => {
    const bus = new EventBus<Events, Controls>();
    expect(await bus.emitControl('gate', { what: 'x' })).toEqual({ allow: true });
    const off = bus.onControl('gate', function denyAll() {
      return { allow: false };
    });
    expect(await bus.emitControl('gate', { what: 'x' })).toEqual({ allow: false, reason: 'refused by the gate hook "denyAll"', blockedBy: 'denyAll' });
    off();
    bus.onControl(
      'gate',
      () => {
        throw new Error('policy file unreadable');
      },
      'broken',
    );
    const out = await bus.emitControl('gate', { what: 'x' });
    expect(out.allow).toBe(false);
    expect(out.blockedBy).toBe('broken');
    expect(out.reason).toContain('policy file unreadable');
  });
});

describe('runtime events and the permission policy', () => {
  const preToolUse = (toolName: string): RuntimeControls['pre_tool_use'] => ({
    sessionId: 's1',
    turn: 1,
    step: 1,
    callId: 'c1',
    toolName,
    arguments: {},
  });

  it('lists the seed §12 event names', () => {
    expect([...RUNTIME_EVENT_NAMES].sort()).toEqual(
      [
        'turn_start',
        'turn_end',
        'session_start',
        'session_shutdown',
        'model_step_started',
        'tool_started',
        'tool_finished',
        'tool_execution_start',
        'tool_execution_end',
        'patch_preview',
        'token_usage',
        'session_compact',
      ].sort(),
    );
  });

  it('refuses write, edit and bash unless allowed, with the flag to use', async () => {
    const bus = createRuntimeEventBus();
    bus.onControl('pre_tool_use', permissionHook(new Set(['write'])), PERMISSION_HOOK_NAME);
    expect(await bus.emitControl('pre_tool_use', preToolUse('write'))).toEqual({ allow: true });
    expect(await bus.emitControl('pre_tool_use', preToolUse('read'))).toEqual({ allow: true });
    expect(await bus.emitControl('pre_tool_use', preToolUse('search_memory'))).toEqual({ allow: true });
    const bash = await bus.emitControl('pre_tool_use', preToolUse('bash'));
    expect(bash.allow).toBe(false);
    expect(bash.blockedBy).toBe(PERMISSION_HOOK_NAME);
    expect(bash.reason).toContain('--allow write,bash');
    const edit = await bus.emitControl('pre_tool_use', preToolUse('edit'));
    expect(edit.reason).toContain('--allow write,edit');
  });

  it('with nothing allowed, names only the refused tool', async () => {
    const decision = await permissionHook(new Set())(preToolUse('edit'));
    expect(decision).toEqual({ allow: false, reason: expect.stringContaining('--allow edit ') });
  });

  it('parses --allow values', () => {
    expect([...parseAllowFlag('write,bash')]).toEqual(['write', 'bash']);
    expect([...parseAllowFlag(['write', ' Edit , ', 'write'])]).toEqual(['write', 'edit']);
    expect(parseAllowFlag(undefined).size).toBe(0);
    expect(() => parseAllowFlag('write,rm')).toThrow(`--allow: unknown tool "rm"; the valid names are ${GUARDED_TOOLS.join(', ')}`);
  });
});
