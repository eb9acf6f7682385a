// The OpenAPI document lists every tool as a POST with its schemas, every GET view with typed
// parameters, and resolves every $ref it uses.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/helpers.js';
import { TOOLS } from '../../tools/registry.js';
import { GET_ROUTES, openApiPath } from './conveniences.js';
import { buildOpenApi } from './openapi.js';

type Json = Record<string, any>;

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('buildOpenApi', () => {
  const doc = buildOpenApi({ tokenRequired: false }) as Json;

  it('is OpenAPI 3.1 with info and every tool as a POST operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Hindsight HTTP API');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    for (const tool of TOOLS) {
      const op = doc.paths[`/api/tools/${tool.name}`]?.post;
      expect(op, tool.name).toBeDefined();
      expect(op.operationId).toBe(tool.name);
      expect(op.description).toBe(tool.description);
      const input = op.requestBody.content['application/json'].schema;
      expect(input.type).toBe('object');
      expect(input.$schema).toBeUndefined();
      expect(op.responses['200'].content['application/json'].schema.type).toBe('object');
      expect(op.responses['400'].$ref).toBe('#/components/responses/Error400');
      expect(op.responses['404'].$ref).toBe('#/components/responses/Error404');
    }
    const operationIds = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((o: any) => o.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('describes the GET views with path and typed query parameters', () => {
    for (const route of GET_ROUTES) {
      const op = doc.paths[openApiPath(route.path)]?.get;
      expect(op, route.path).toBeDefined();
      for (const param of Object.keys(route.pathArgs)) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name: param, in: 'path', required: true }));
      }
    }
    const list = doc.paths['/api/sessions'].get.parameters as Json[];
    expect(list.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    const search = doc.paths['/api/search'].get.parameters as Json[];
    expect(search.find((p) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
    const timeline = doc.paths['/api/sessions/{id}/timeline'].get.parameters as Json[];
    expect(timeline.some((p) => p.name === 'session_id')).toBe(false);
  });

  it('resolves every $ref and declares the error envelope', () => {
    for (const ref of refs(doc)) {
      const target = ref.replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k], doc);
      expect(target, ref).toBeDefined();
    }
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['status', 'error', 'code']);
  });

  it('requires the bearer token only when the server has one', () => {
    expect(doc.security).toBeUndefined();
    const secured = buildOpenApi({ tokenRequired: true }) as Json;
    expect(secured.security).toEqual([{ bearer: [] }]);
    expect(secured.paths['/api/tools/list_sessions'].post.responses['401']).toBeDefined();
  });

  it('matches docs/http.md: every GET view is documented with its tool', () => {
    const doc = readFileSync(join(REPO, 'docs', 'http.md'), 'utf8');
    for (const route of GET_ROUTES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| GET | \`${openApiPath(route.path)}`));
      expect(row, route.path).toBeDefined();
      expect(row, route.path).toContain(`\`${route.tool}\``);
    }
  });
});
