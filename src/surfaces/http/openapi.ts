// The OpenAPI 3.1 document of the HTTP API, generated from the tool registry and the GET route
// table: every tool a POST operation (with its examples as request examples), every convenience a
// GET, one error envelope for all.

import { packageVersion } from '../../core/package-info.js';
import { findTool } from '../../tools/registry.js';
import { GET_ROUTES, openApiPath } from './conveniences.js';
import { TOOL_ERROR_STATUS, HTTP_ERROR_CODES } from './status-map.js';
import { toolDescriptions } from './tool-schemas.js';

type Json = Record<string, unknown>;

/** OpenAPI 3.1 speaks JSON Schema 2020-12; the draft-7 `$schema` marker would mislead validators. */
function bare(schema: unknown): Json {
  const { $schema: _ignored, ...rest } = schema as Json;
  return rest;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/** A tool's examples as OpenAPI request examples, keyed ok_1, error_1… and saying what each answers. */
function requestExamples(name: string): Json {
  const examples: Json = {};
  const counts = { ok: 0, error: 0 };
  for (const e of findTool(name)?.examples ?? []) {
    const key = `${e.status}_${++counts[e.status]}`;
    const answer = e.status === 'ok' ? 'answers ok' : `answers ${e.code}`;
    examples[key] = { summary: `${e.about} (${answer})`, value: e.args };
  }
  return examples;
}

function errorResponses(statuses: number[]): Json {
  const out: Json = {};
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    out[String(status)] = { $ref: `#/components/responses/Error${status}` };
  }
  return out;
}

const REASONS: Record<number, string> = {
  400: 'Invalid arguments, malformed JSON',
  401: 'Missing or wrong bearer token',
  403: 'Host or origin not allowed',
  404: 'Unknown tool, or what the arguments name does not exist',
  405: 'Wrong method',
  409: 'Ambiguous reference, or the store or sources are busy or changed',
  413: 'Request body over the limit',
  415: 'Body is not application/json',
  422: 'Understood but not possible for this session',
  500: 'Internal error',
  503: 'The store cannot be used',
};

/**
 * The API's OpenAPI document. `tokenRequired` adds the bearer security requirement.
 *
 * @example buildOpenApi({ tokenRequired: false }).paths['/api/tools/list_sessions'].post.operationId // 'list_sessions'
 */
export function buildOpenApi(options: { tokenRequired: boolean }): Json & { paths: Record<string, Json> } {
  const tools = toolDescriptions().tools;
  const allStatuses = [...Object.values(HTTP_ERROR_CODES), ...Object.values(TOOL_ERROR_STATUS)];
  const toolErrors = errorResponses([400, 403, 404, 409, 413, 415, 422, 500, 503, ...(options.tokenRequired ? [401] : [])]);
  const paths: Record<string, Json> = {};
  for (const t of tools) {
    paths[`/api/tools/${t.tool_id}`] = {
      post: {
        operationId: t.tool_id,
        summary: t.title,
        description: t.description,
        tags: ['tools'],
        requestBody: {
          required: false,
          description: 'The tool arguments as one JSON object; an empty body is {}.',
          content: { 'application/json': { schema: bare(t.parameters), examples: requestExamples(t.tool_id) } },
        },
        responses: {
          '200': { description: 'The tool answered', content: { 'application/json': { schema: bare(t.output) } } },
          ...toolErrors,
        },
      },
    };
  }
  for (const route of GET_ROUTES) {
    const tool = tools.find((t) => t.tool_id === route.tool);
    if (!tool) continue;
    const properties = ((tool.parameters as Json).properties ?? {}) as Record<string, Json>;
    const pathNames = new Set(Object.values(route.pathArgs));
    const aliasOf = Object.fromEntries(Object.entries(route.aliases).map(([short, long]) => [long, short]));
    const required = new Set(((tool.parameters as Json).required ?? []) as string[]);
    const parameters = [
      ...Object.entries(route.pathArgs).map(([param, arg]) => ({
        name: param,
        in: 'path',
        required: true,
        description: `The tool's \`${arg}\`.`,
        schema: properties[arg] ?? { type: 'string' },
      })),
      ...Object.entries(properties)
        .filter(([name]) => !pathNames.has(name))
        .map(([name, schema]) => ({
          name: aliasOf[name] ?? name,
          in: 'query',
          required: required.has(name),
          schema,
          ...((schema as Json).type === 'array' ? { style: 'form', explode: true } : {}),
        })),
    ];
    paths[openApiPath(route.path)] = {
      get: {
        operationId: `get_${openApiPath(route.path).replace(/^\/api\//, '').replace(/[{}]/g, '').replace(/\//g, '_')}`,
        summary: route.summary,
        description: `Runs \`${route.tool}\` with the path and query parameters as its arguments (typed by its schema).`,
        tags: ['views'],
        parameters,
        responses: {
          '200': { description: `The ${route.tool} envelope`, content: { 'application/json': { schema: bare(tool.output) } } },
          ...toolErrors,
        },
      },
    };
  }
  paths['/api/tools'] = {
    get: {
      operationId: 'describe_tools',
      summary: 'The tool registry: names, descriptions, JSON Schemas',
      tags: ['meta'],
      responses: { '200': { description: 'Same as `hindsight tools --json`', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['meta'],
      responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  const responses: Json = {};
  for (const status of [...new Set(allStatuses)].sort((a, b) => a - b)) {
    responses[`Error${status}`] = {
      description: REASONS[status] ?? 'Error',
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hindsight HTTP API',
      version: packageVersion(),
      description: 'Every Hindsight tool as POST /api/tools/<name>, plus read-only GET views. Answers are the tool envelopes.',
    },
    servers: [{ url: '/' }],
    ...(options.tokenRequired ? { security: [{ bearer: [] }] } : {}),
    paths,
    components: {
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['status', 'error', 'code'],
          properties: {
            status: { const: 'error' },
            error: { type: 'string', description: 'A sentence saying what went wrong and what to do.' },
            code: {
              type: 'string',
              description: 'A stable machine-readable code; docs/http.md maps each to its status.',
              examples: [...Object.keys(HTTP_ERROR_CODES), ...Object.keys(TOOL_ERROR_STATUS)].sort(),
            },
          },
        },
      },
      responses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
