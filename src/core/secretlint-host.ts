// A synchronous host for secretlint rules. secretlint's own engine (@secretlint/core) lints
// asynchronously, per file, with source maps and formatters; redaction needs a string in and the
// findings out, synchronously, thousands of times a second. A rule is plain data plus `create`, so
// this runs it directly, offering only the part of secretlint's rule-author API
// (@secretlint/types: SecretLintRuleContext, SecretLintRulePresetContext) that rules call:
//   context.report({message, range}), context.ignore(...), context.createTranslator(messages),
//   context.sharedOptions, and, for a preset, context.registerRule(rule, defaults).
// The source a rule sees is the text with no file behind it: `filePath` undefined, `ext` ''. A
// handler that returns a promise (a rule reading a file: secretlint-rule-gcp for `.p12`) is an
// error, because its findings would arrive after the text was returned.

export type Range = readonly [number, number];

/** What a translator returns and a rule passes to report (secretlint's SecretLintRuleTranslatorResult). */
export interface TranslatedMessage {
  message: string;
  messageId: string;
  data: Record<string, unknown> | undefined;
}

type LocalizedMessages = Record<string, { en: (props?: Record<string, unknown>) => string }>;

export interface RuleSource {
  readonly content: string;
  readonly filePath: undefined;
  readonly ext: string;
  readonly hasBOM: boolean;
  getFilePath(): undefined;
}

interface RuleHandlers {
  file?(source: RuleSource): unknown;
}

export interface RuleContext {
  sharedOptions: Record<string, unknown>;
  createTranslator(messages: LocalizedMessages): (messageId: string, data?: Record<string, unknown>) => TranslatedMessage;
  report(descriptor: { message: TranslatedMessage | string; range: readonly number[] }): void;
  ignore(descriptor: { message: TranslatedMessage | string; range: readonly number[]; targetRuleId: string }): void;
}

export interface SecretlintRule {
  meta: { id: string; type?: string };
  messages?: LocalizedMessages;
  create(context: RuleContext, options: Record<string, unknown>): RuleHandlers | void;
}

export interface SecretlintPreset {
  meta: { id: string; type: 'preset' };
  create(
    context: { sharedOptions: Record<string, unknown>; registerRule(rule: SecretlintRule, defaults?: { options?: Record<string, unknown> }): void },
    options: Record<string, unknown>,
  ): void;
}

/** One report of one rule on one text. */
export interface Finding {
  ruleId: string;
  messageId: string;
  /** The values the rule put in its message (the matched token, key, URL…). */
  data: Record<string, unknown>;
  range: Range;
  message: string;
}

export interface HostOptions {
  /** Options per rule id, over the preset's defaults (secretlint's `rules: [{id, options}]`). */
  options?: Record<string, Record<string, unknown>>;
  /** Rule ids not to run at all. */
  skip?: ReadonlySet<string>;
}

interface LoadedRule {
  id: string;
  handlers: RuleHandlers;
}

/** The rules of a preset, in its order, each `create`d once; `run` feeds them texts. */
export class SecretlintHost {
  private readonly rules: LoadedRule[] = [];
  /** Every rule id that runs, in the preset's order (a rule's index in `run`'s `only`). */
  readonly ruleIds: string[] = [];
  private findings: Finding[] = [];
  private current = '';

  constructor(preset: SecretlintPreset, host: HostOptions = {}) {
    const sharedOptions: Record<string, unknown> = {};
    const registered: { rule: SecretlintRule; defaults: Record<string, unknown> }[] = [];
    preset.create({ sharedOptions, registerRule: (rule, defaults) => registered.push({ rule, defaults: defaults?.options ?? {} }) }, {});
    for (const { rule, defaults } of registered) {
      const id = rule.meta.id;
      if (host.skip?.has(id)) continue;
      const handlers = rule.create(this.contextFor(id, sharedOptions), { ...defaults, ...host.options?.[id] }) ?? {};
      this.rules.push({ id, handlers });
      this.ruleIds.push(id);
    }
  }


  /**
   * Run the rules (all, or those whose index is in `only`) on `text` and return their reports.
   * Not re-entrant: a rule's report lands in the run under way.
   */
  run(text: string, only?: readonly number[]): Finding[] {
    const source: RuleSource = { content: text, filePath: undefined, ext: '', hasBOM: text.charCodeAt(0) === 0xfeff, getFilePath: () => undefined };
    this.findings = [];
    this.current = text;
    try {
      const indexes = only ?? this.rules.map((_r, i) => i);
      for (const i of indexes) {
        const rule = this.rules[i]!;
        if (!rule.handlers.file) continue;
        const result = rule.handlers.file(source);
        if (result instanceof Promise) {
          result.catch(() => undefined);
          throw new Error(`secretlint rule ${rule.id} answered asynchronously; the redaction host runs rules synchronously only.`);
        }
      }
      return this.findings;
    } finally {
      this.findings = [];
      this.current = '';
    }
  }

  private contextFor(ruleId: string, sharedOptions: Record<string, unknown>): RuleContext {
    return {
      sharedOptions,
      createTranslator: (messages) => (messageId, data) => {
        const localized = messages[messageId];
        if (!localized) throw new Error(`secretlint rule ${ruleId} used message id "${messageId}", which its messages do not define.`);
        return { message: localized.en(data), messageId, data };
      },
      report: ({ message, range }) => {
        const [start, end] = range;
        if (typeof start !== 'number' || typeof end !== 'number' || !(start >= 0 && start <= end && end <= this.current.length)) {
          throw new Error(`secretlint rule ${ruleId} reported the range [${String(range)}], outside a text of ${this.current.length} characters.`);
        }
        const translated = typeof message === 'string' ? { message, messageId: '', data: undefined } : message;
        this.findings.push({ ruleId, messageId: translated.messageId, data: translated.data ?? {}, range: [start, end], message: translated.message });
      },
      // A rule may ask to hide other rules' reports (secretlint-rule-filter-comments does, on
      // `secretlint-disable` comments). Redaction never honours that: the text is evidence written
      // by someone else, and a comment in it must not switch redaction off. The request is dropped.
      ignore: () => undefined,
    };
  }
}
