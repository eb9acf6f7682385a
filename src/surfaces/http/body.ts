// Reading a request's JSON body under a size cap: the declared length is checked first, then the
// stream is counted as it arrives, so a chunked upload cannot grow memory past the limit.

export type BodyResult =
  | { ok: true; args: unknown }
  | { ok: false; code: 'BODY_TOO_LARGE' | 'MALFORMED_JSON' | 'UNSUPPORTED_MEDIA_TYPE'; error: string };

async function readCapped(request: Request, maxBytes: number): Promise<Buffer | null> {
  const header = request.headers.get('content-length');
  const declared = header === null ? NaN : Number(header);
  if (declared > maxBytes) return null;
  // A valid declared length bounds the body (the HTTP parser reads no more than it), so it is read
  // in one go: @hono/node-server then reads the socket directly instead of building an undici
  // Request and a ReadableStream per request (a visible share of a kept answer's CPU in a profile).
  // Any other header (absent, not a number) leaves the body to the counted stream below.
  if (Number.isSafeInteger(declared) && declared >= 0) {
    const bytes = Buffer.from(await request.arrayBuffer());
    return bytes.byteLength > maxBytes ? null : bytes;
  }
  if (!request.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, size);
}

/**
 * The tool arguments a POST carries: an empty body is {}; anything else must be JSON
 * (`Content-Type: application/json`, which also keeps cross-site forms from posting), at most
 * `maxBytes`.
 *
 * @example await readJsonBody(new Request('http://x/', { method: 'POST', body: '{"limit":5}', headers: { 'content-type': 'application/json' } }), 1e6)
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const bytes = await readCapped(request, maxBytes);
  if (bytes === null) {
    return {
      ok: false,
      code: 'BODY_TOO_LARGE',
      error: `The request body is larger than this server's limit of ${maxBytes} bytes. Send fewer arguments (tool arguments are small), or restart the server with a larger limit.`,
    };
  }
  if (bytes.toString('utf8').trim() === '') return { ok: true, args: {} };
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return {
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: `The body is sent as "${type || 'no content type'}"; send the arguments as JSON with the header Content-Type: application/json (curl: --json '{...}').`,
    };
  }
  let args: unknown;
  try {
    args = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return {
      ok: false,
      code: 'MALFORMED_JSON',
      error: `The request body is not valid JSON (${(err as Error).message}). Send one JSON object of arguments, e.g. {"limit": 5}.`,
    };
  }
  return { ok: true, args };
}
