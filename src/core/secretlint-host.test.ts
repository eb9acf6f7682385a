import { describe, expect, it } from 'vitest';
import { SecretlintHost, type RuleContext, type SecretlintPreset, type SecretlintRule } from './secretlint-host.js';

// A rule written as secretlint's rule-author guide shows: messages, meta, create → {file}.
const wordRule = (id: string, word: string): SecretlintRule => ({
  meta: { id, type: 'scanner' },
  messages: { FOUND: { en: (props) => `found ${String(props?.WORD)}` } },
  create(context: RuleContext, options: Record<string, unknown>) {
    const t = context.createTranslator(this.messages!);
    const allowed = (options.allows as string[] | undefined) ?? [];
    return {
      file(source) {
        for (const m of source.content.matchAll(new RegExp(word, 'g'))) {
          if (allowed.includes(m[0])) continue;
          context.report({ message: t('FOUND', { WORD: m[0] }), range: [m.index, m.index + m[0].length] });
        }
      },
    };
  },
});

const presetOf = (...rules: SecretlintRule[]): SecretlintPreset => ({
  meta: { id: 'test-preset', type: 'preset' },
  create(context) {
    for (const rule of rules) context.registerRule(rule);
  },
});

describe('SecretlintHost', () => {
  it("runs a preset's rules synchronously and returns each report with its rule, message and range", () => {
    const host = new SecretlintHost(presetOf(wordRule('r/alpha', 'alpha'), wordRule('r/beta', 'beta')));
    expect(host.ruleIds).toEqual(['r/alpha', 'r/beta']);
    expect(host.run('alpha beta alpha')).toEqual([
      { ruleId: 'r/alpha', messageId: 'FOUND', data: { WORD: 'alpha' }, range: [0, 5], message: 'found alpha' },
      { ruleId: 'r/alpha', messageId: 'FOUND', data: { WORD: 'alpha' }, range: [11, 16], message: 'found alpha' },
      { ruleId: 'r/beta', messageId: 'FOUND', data: { WORD: 'beta' }, range: [6, 10], message: 'found beta' },
    ]);
    // Only the rules asked for; each run starts empty.
    expect(host.run('alpha beta', [1]).map((f) => f.ruleId)).toEqual(['r/beta']);
    expect(host.run('nothing here')).toEqual([]);
  });

  it('passes options per rule id and leaves out skipped rules', () => {
    const host = new SecretlintHost(presetOf(wordRule('r/alpha', 'alpha'), wordRule('r/beta', 'beta')), {
      options: { 'r/alpha': { allows: ['alpha'] } },
      skip: new Set(['r/beta']),
    });
    expect(host.ruleIds).toEqual(['r/alpha']);
    expect(host.run('alpha beta')).toEqual([]);
  });

  it('drops ignore requests: a text cannot switch redaction off', () => {
    const filter: SecretlintRule = {
      meta: { id: 'r/filter', type: 'scanner' },
      messages: { IGNORE: { en: () => 'ignored' } },
      create(context) {
        const t = context.createTranslator(this.messages!);
        return { file: (source) => context.ignore({ message: t('IGNORE'), range: [0, source.content.length], targetRuleId: '*' }) };
      },
    };
    const host = new SecretlintHost(presetOf(filter, wordRule('r/alpha', 'alpha')));
    expect(host.run('alpha').map((f) => f.ruleId)).toEqual(['r/alpha']);
  });

  it('says which rule broke the contract: an asynchronous handler, a range outside the text, an unknown message id', () => {
    const asyncRule: SecretlintRule = { meta: { id: 'r/async' }, create: () => ({ file: async () => undefined }) };
    expect(() => new SecretlintHost(presetOf(asyncRule)).run('text')).toThrow('secretlint rule r/async answered asynchronously');
    const outside: SecretlintRule = {
      meta: { id: 'r/outside' },
      messages: { M: { en: () => 'm' } },
      create(context) {
        const t = context.createTranslator(this.messages!);
        return { file: () => context.report({ message: t('M'), range: [2, 99] }) };
      },
    };
    expect(() => new SecretlintHost(presetOf(outside)).run('text')).toThrow('secretlint rule r/outside reported the range [2,99], outside a text of 4 characters.');
    const unknown: SecretlintRule = {
      meta: { id: 'r/unknown' },
      messages: {},
      create(context) {
        const t = context.createTranslator(this.messages!);
        return { file: () => context.report({ message: t('NOPE'), range: [0, 1] }) };
      },
    };
    expect(() => new SecretlintHost(presetOf(unknown)).run('text')).toThrow('secretlint rule r/unknown used message id "NOPE"');
  });

  it('gives a rule a source without a file: no path, no extension', () => {
    let seen: unknown;
    const probe: SecretlintRule = { meta: { id: 'r/probe' }, create: () => ({ file: (source) => void (seen = { path: source.filePath, ext: source.ext, content: source.content }) }) };
    new SecretlintHost(presetOf(probe)).run('abc');
    expect(seen).toEqual({ path: undefined, ext: '', content: 'abc' });
  });
});
