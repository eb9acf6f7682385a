import { describe, expect, it } from 'vitest';
import { classifyResultForRecovery, type TurnOutcome } from './classify.js';
import { MAX_RECOVERY_ATTEMPTS_PER_TURN, MAX_STDERR_CHARS, RECOVERY_LIMITS, RecoveryManager } from './recovery-manager.js';

const turn = (over: Partial<TurnOutcome>): TurnOutcome => ({ terminalState: 'completed', finalContent: 'done', ...over });
const bashError = (content: string) => ({ name: 'bash', isError: true, content });

describe('classifyResultForRecovery', () => {
  it('leaves a completed turn with an answer alone', () => {
    expect(classifyResultForRecovery(turn({}))).toBeNull();
  });

  it('empty_response: completed with empty or blank content', () => {
    expect(classifyResultForRecovery(turn({ finalContent: null }))).toBe('empty_response');
    expect(classifyResultForRecovery(turn({ finalContent: '  \n' }))).toBe('empty_response');
  });

  it('bash_failure: a failed bash result and no answer', () => {
    const results = [{ name: 'read', isError: false, content: 'x' }, bashError('make: *** [all] Error 2')];
    expect(classifyResultForRecovery(turn({ terminalState: 'error', finalContent: null, lastToolResults: results }))).toBe('bash_failure');
    expect(classifyResultForRecovery(turn({ terminalState: 'step_limit', finalContent: null, lastToolResults: results }))).toBe('bash_failure');
    expect(classifyResultForRecovery(turn({ finalContent: '', lastToolResults: results }))).toBe('bash_failure');
    // The model saw the failure and answered: nothing to recover.
    expect(classifyResultForRecovery(turn({ finalContent: 'the build fails because…', lastToolResults: results }))).toBeNull();
    // A bash failure fixed by a later bash call is over.
    const fixed = [bashError('exit 1'), { name: 'bash', isError: false, content: 'ok' }, { name: 'read', isError: true, content: 'ENOENT' }];
    expect(classifyResultForRecovery(turn({ terminalState: 'error', finalContent: null, lastToolResults: fixed }))).toBeNull();
    // A failed non-bash tool is not a bash failure.
    expect(classifyResultForRecovery(turn({ terminalState: 'error', lastToolResults: [{ name: 'read', isError: true, content: 'ENOENT' }] }))).toBeNull();
  });

  it('context_exhaustion: by errorKind, whatever the terminal state', () => {
    expect(classifyResultForRecovery(turn({ terminalState: 'budget_exhausted', errorKind: 'context_exhaustion' }))).toBe('context_exhaustion');
    expect(classifyResultForRecovery(turn({ terminalState: 'error', errorKind: 'context_exhaustion', finalContent: null }))).toBe('context_exhaustion');
    // The money budget is not retried.
    expect(classifyResultForRecovery(turn({ terminalState: 'budget_exhausted', finalContent: null }))).toBeNull();
  });

  it('infinite_loop: the same tool and arguments three times in a row (key order ignored)', () => {
    const ls = { name: 'bash', arguments: { command: 'ls', timeout: 5 } };
    const lsReordered = { name: 'bash', arguments: { timeout: 5, command: 'ls' } };
    expect(classifyResultForRecovery(turn({ terminalState: 'step_limit', recentCalls: [ls, lsReordered, ls] }))).toBe('infinite_loop');
    expect(classifyResultForRecovery(turn({ terminalState: 'step_limit', finalContent: null, recentCalls: [ls, ls] }))).toBeNull();
    const other = { name: 'bash', arguments: { command: 'pwd', timeout: 5 } };
    expect(classifyResultForRecovery(turn({ terminalState: 'step_limit', finalContent: null, recentCalls: [ls, ls, other] }))).toBeNull();
    expect(classifyResultForRecovery(turn({ terminalState: 'step_limit', finalContent: null, recentCalls: [other, ls, ls, ls] }))).toBe('infinite_loop');
  });

  it('never retries an aborted or handed-off turn', () => {
    expect(classifyResultForRecovery(turn({ terminalState: 'aborted', finalContent: null, errorKind: 'context_exhaustion' }))).toBeNull();
    expect(classifyResultForRecovery(turn({ terminalState: 'handoff', finalContent: null }))).toBeNull();
  });
});

describe('RecoveryManager recipes and limits', () => {
  it('has the seed limits', () => {
    expect(RECOVERY_LIMITS).toEqual({ empty_response: 2, bash_failure: 2, context_exhaustion: 1, infinite_loop: 1 });
    expect(MAX_RECOVERY_ATTEMPTS_PER_TURN).toBe(3);
  });

  it('empty_response: two nudges, then null', () => {
    const m = new RecoveryManager();
    const first = m.attemptRecovery({ scenario: 'empty_response' });
    expect(first).toMatchObject({ recovered: true, scenario: 'empty_response', attempt: 1, totalAttempts: 1 });
    expect(first!.message).toMatch(/^Your last response was empty\. Please continue/);
    expect(m.attemptRecovery({ scenario: 'empty_response' })).toMatchObject({ attempt: 2 });
    expect(m.attemptRecovery({ scenario: 'empty_response' })).toBeNull();
  });

  it('bash_failure: quotes the error output from the result, bounded to its tail; two attempts', () => {
    const m = new RecoveryManager();
    const result = turn({ terminalState: 'error', finalContent: null, lastToolResults: [bashError('ls: cannot access nope: No such file')] });
    const first = m.attemptRecovery({ scenario: 'bash_failure', result });
    expect(first!.message).toContain('The last bash command failed with error:\nls: cannot access nope: No such file');
    const long = 'x'.repeat(5000) + 'THE REAL ERROR';
    const second = m.attemptRecovery({ scenario: 'bash_failure', stderr: long });
    expect(second!.message).toContain('THE REAL ERROR');
    expect(second!.message).toContain('earlier characters cut');
    expect(second!.message.length).toBeLessThan(MAX_STDERR_CHARS + 300);
    expect(m.attemptRecovery({ scenario: 'bash_failure', stderr: 'again' })).toBeNull();
  });

  it('context_exhaustion: one attempt', () => {
    const m = new RecoveryManager();
    expect(m.attemptRecovery({ scenario: 'context_exhaustion' })!.message).toMatch(/^⚠️ Context budget is running low/);
    expect(m.attemptRecovery({ scenario: 'context_exhaustion' })).toBeNull();
  });

  it('infinite_loop: names the repeated tool; one attempt', () => {
    const m = new RecoveryManager();
    const call = { name: 'grep', arguments: { pattern: 'x' } };
    const out = m.attemptRecovery({ scenario: 'infinite_loop', result: turn({ recentCalls: [call, call, call] }) });
    expect(out!.message).toBe(
      'You appear stuck repeating the grep call with the same arguments. Its result will not change: try a different approach, or give your final answer with what you know.',
    );
    expect(m.attemptRecovery({ scenario: 'infinite_loop' })).toBeNull();
  });

  it('at most three recoveries per turn across scenarios; resetForTurn starts afresh', () => {
    const m = new RecoveryManager();
    expect(m.attemptRecovery({ scenario: 'empty_response' })).not.toBeNull();
    expect(m.attemptRecovery({ scenario: 'bash_failure', stderr: 'e' })).not.toBeNull();
    expect(m.attemptRecovery({ scenario: 'context_exhaustion' })).toMatchObject({ totalAttempts: 3 });
    // infinite_loop has its own attempt left, but the turn's budget is spent.
    expect(m.attemptRecovery({ scenario: 'infinite_loop' })).toBeNull();
    expect(m.attemptsUsed()).toBe(3);
    expect(m.attemptsUsed('empty_response')).toBe(1);
    m.resetForTurn();
    expect(m.attemptsUsed()).toBe(0);
    expect(m.attemptRecovery({ scenario: 'infinite_loop' })).toMatchObject({ attempt: 1, totalAttempts: 1 });
    expect(m.attemptRecovery({ scenario: 'context_exhaustion' })).toMatchObject({ attempt: 1 });
  });

  it('takes other limits when configured', () => {
    const m = new RecoveryManager({ limits: { empty_response: 0 }, maxPerTurn: 1 });
    expect(m.attemptRecovery({ scenario: 'empty_response' })).toBeNull();
    expect(m.attemptRecovery({ scenario: 'bash_failure' })!.message).toContain('(no error output)');
    expect(m.attemptRecovery({ scenario: 'bash_failure' })).toBeNull();
  });

  it('drives a retry loop the way startTurnWithRecovery does', () => {
    // A turn that keeps coming back empty: two nudges, then the loop gives up with the last result.
    const m = new RecoveryManager();
    m.resetForTurn();
    const nudges: string[] = [];
    let result = turn({ finalContent: '' });
    for (;;) {
      const scenario = classifyResultForRecovery(result);
      if (!scenario) break;
      const action = m.attemptRecovery({ scenario, result });
      if (!action) break;
      nudges.push(action.message);
      result = turn({ finalContent: '' });
    }
    expect(nudges).toHaveLength(2);
  });
});
