import { describe, expect, it } from 'vitest';
import { findPrice, normalizeModelId, PRICE_TABLE, PRICES_AS_OF, PRICE_SOURCES } from './pricing.js';

describe('price table', () => {
  it('states its date and sources', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PRICE_SOURCES.some((s) => s.includes('platform.claude.com'))).toBe(true);
  });

  it('covers the Claude families asked for and the models of the fixtures', () => {
    for (const id of [
      'claude-opus-4-1-20250805',
      'claude-opus-4-20250514',
      'claude-opus-4-5-20251101',
      'claude-opus-4-6',
      'claude-opus-4-8',
      'claude-sonnet-4-20250514',
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-6',
      'claude-sonnet-5',
      'claude-haiku-4-5-20251001',
      'claude-3-7-sonnet-20250219',
      'claude-3-5-sonnet-20241022',
      'claude-3-5-haiku-20241022',
      'gemini-3-flash-preview',
      'gemini-3.1-pro-preview',
      'gpt-5',
    ]) {
      expect(findPrice(id), id).not.toBeNull();
    }
  });

  it('has one row per canonical id and no alias shared by two rows', () => {
    const seen = new Set<string>();
    for (const p of PRICE_TABLE) {
      for (const id of [p.model, ...(p.aliases ?? [])]) {
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
        expect(normalizeModelId(id)).toBe(id);
      }
    }
  });
});

describe('model id matching', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'],
    ['anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5'],
    ['anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-5-haiku'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    ['claude-opus-4-6[1m]', 'claude-opus-4-6'],
    ['Claude-3.5-Sonnet-Latest', 'claude-3-5-sonnet'],
    ['models/gemini-3-flash-preview', 'gemini-3-flash-preview'],
    ['openai/gpt-5-2025-08-07', 'gpt-5'],
  ])('%s → %s', (raw, id) => {
    expect(normalizeModelId(raw)).toBe(id);
    expect(findPrice(raw)).not.toBeNull();
    expect(findPrice(raw)).toBe(findPrice(id));
  });

  it('prices a custom name by the known id it contains as a whole part, as ccusage 20 does', () => {
    expect(findPrice('aide-gpt-5')).toBe(findPrice('gpt-5')); // ccusage 20.0.24: gpt-5, isFallback false
    expect(findPrice('gpt-5-mini-proxy')).toBe(findPrice('gpt-5-mini'));
    expect(findPrice('my-gpt-50')).toBeNull(); // gpt-5 is not a whole part of gpt-50
  });

  it('matches a dated id to the same row as its undated form', () => {
    expect(findPrice('claude-sonnet-4-5-20250929')).toBe(findPrice('claude-sonnet-4-5'));
    expect(findPrice('claude-sonnet-4-0')).toBe(findPrice('claude-sonnet-4'));
  });

  it('gives no price (not zero) for unknown, custom or missing model names', () => {
    expect(findPrice('claude-imaginary-9')).toBeNull();
    expect(findPrice('<synthetic>')).toBeNull();
    expect(findPrice(null)).toBeNull();
    expect(findPrice('')).toBeNull();
  });
});
