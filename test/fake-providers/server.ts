// The HTTP part both fakes share: listen on 127.0.0.1 port 0, record requests, pick the step for
// each model request, send raw steps, hang, drop connections. The protocol files only render.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRaw, type FakeRaw, type FakeReply, type FakeScript, type FakeServer, type FakeStep, type RecordedRequest } from './script.js';

/** A rendered reply: status, headers and the body as SSE events (or one JSON text). */
export interface RenderedReply {
  status: number;
  headers: Record<string, string>;
  /** Each element is written separately (one SSE event each); dropAfterEvents counts these. */
  parts: string[];
}

export interface FakeProtocol {
  /** The base URL path clients are given ('/v1' for OpenAI, '' for Anthropic). */
  basePath: string;
  isModelRequest(method: string, path: string): boolean;
  isModelListing(method: string, path: string): boolean;
  renderModels(models: readonly string[]): unknown;
  renderReply(reply: FakeReply, request: RecordedRequest, index: number): RenderedReply;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return null;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function sendRaw(res: ServerResponse, step: FakeRaw): void {
  const body = step.body === undefined ? '' : typeof step.body === 'string' || step.body instanceof Uint8Array ? step.body : JSON.stringify(step.body);
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const headers: Record<string, string> = { ...(step.headers ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = typeof step.body === 'object' && !(step.body instanceof Uint8Array) ? 'application/json' : 'text/plain';
  }
  if (step.dropAfterBytes !== undefined) {
    res.writeHead(step.status ?? 200, headers);
    res.write(bytes.subarray(0, step.dropAfterBytes), () => res.destroy());
    return;
  }
  res.writeHead(step.status ?? 200, { ...headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

async function sendReply(res: ServerResponse, rendered: RenderedReply, dropAfterEvents: number | undefined): Promise<void> {
  res.writeHead(rendered.status, rendered.headers);
  const limit = dropAfterEvents ?? Infinity;
  for (let i = 0; i < rendered.parts.length; i++) {
    if (i >= limit) {
      res.destroy();
      return;
    }
    await new Promise<void>((resolve) => res.write(rendered.parts[i]!, () => resolve()));
  }
  res.end();
}

export async function startFakeServer(protocol: FakeProtocol, script: FakeScript, models: readonly string[]): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const modelRequests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      const recorded: RecordedRequest = { method, path, headers: headerRecord(req), body: await readBody(req) };
      requests.push(recorded);
      if (protocol.isModelListing(method, path)) {
        sendRaw(res, { kind: 'raw', status: 200, body: protocol.renderModels(models) as object });
        return;
      }
      if (!protocol.isModelRequest(method, path)) {
        sendRaw(res, { kind: 'raw', status: 404, body: { error: { message: `fake provider: no route ${method} ${path}`, type: 'not_found' } } });
        return;
      }
      const index = modelRequests.length;
      modelRequests.push(recorded);
      const step: FakeStep | undefined = typeof script === 'function' ? script(recorded, index) : script[index];
      if (!step) {
        sendRaw(res, {
          kind: 'raw',
          status: 500,
          body: { error: { message: `fake provider: the script has no step ${index + 1} (it has ${Array.isArray(script) ? script.length : '?'})`, type: 'server_error' } },
        });
        return;
      }
      if (step.kind === 'hang') return;
      if ('delayMs' in step && step.delayMs) await delay(step.delayMs);
      if (isRaw(step)) return sendRaw(res, step);
      await sendReply(res, protocol.renderReply(step, recorded, index), step.dropAfterEvents);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${protocol.basePath}`,
    requests,
    modelRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
