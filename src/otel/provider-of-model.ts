// A call's `gen_ai.provider.name` when its format talks to several providers (the format's
// agentIdentity says null): read from the model name's family, as the conventions' well-known
// values spell the providers. A model no family matches is named by what the log says, nothing
// more: the conventions allow any value, and a wrong guess would mislead a cost dashboard.

const FAMILIES: readonly [RegExp, string][] = [
  [/claude|anthropic/i, 'anthropic'],
  [/\bgpt|^o[134]\b|^o[134]-|codex|openai|chatgpt/i, 'openai'],
  [/gemini|gemma|google/i, 'gcp.gemini'],
  [/mistral|mixtral|codestral|magistral|devstral/i, 'mistral_ai'],
  [/deepseek/i, 'deepseek'],
  [/grok|x-ai|xai/i, 'x_ai'],
  [/command-r|cohere/i, 'cohere'],
  [/sonar|perplexity/i, 'perplexity'],
];

/** The provider a model name belongs to (a `provider/model` prefix first), else null. */
export function providerOfModel(model: string | null): string | null {
  if (!model) return null;
  const slash = model.indexOf('/');
  const named = slash > 0 ? model.slice(0, slash).toLowerCase() : null;
  for (const [re, provider] of FAMILIES) if (named !== null && re.test(named)) return provider;
  for (const [re, provider] of FAMILIES) if (re.test(model)) return provider;
  return null;
}
