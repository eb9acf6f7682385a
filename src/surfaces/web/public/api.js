// Calls the HTTP API (POST /api/tools/<name>) and keeps the access token for this browser tab.
// The token arrives once in the page URL (?token= or #token=), moves to sessionStorage and leaves the URL.

const TOKEN_KEY = 'hindsight.token';

export function captureToken() {
  const url = new URL(window.location.href);
  let token = url.searchParams.get('token');
  if (token !== null) url.searchParams.delete('token');
  const hash = url.hash;
  const m = /(?:^#|[?&])token=([^&]*)/.exec(hash);
  if (m) {
    try {
      token = decodeURIComponent(m[1]);
    } catch {
      // A mangled link (#token=%E0): drop it; the page then asks for the token.
      token = '';
    }
    const rest = hash.replace(/([?&]|^#)token=[^&]*&?/, '$1').replace(/[?&]$/, '');
    url.hash = rest === '#' || rest === '' ? '' : rest;
  }
  if (token !== null) {
    if (token === '') sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
}

export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(message, code, httpStatus) {
    super(message);
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/** Request headers: JSON, and the tab's access token when there is one. */
function apiHeaders(extra = {}) {
  const headers = { accept: 'application/json', ...extra };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

let formatsOnce = null;

/**
 * The formats this server reads, `[{ id, label }]` in its order (GET api/formats), asked once per
 * page load; a failed ask resolves to none and is asked again next time.
 */
export function listFormats() {
  formatsOnce ??= fetch('api/formats', { headers: apiHeaders() })
    .then((res) => res.json())
    .then((body) => (body && body.status === 'ok' ? body.formats : Promise.reject(new Error('no formats'))))
    .catch(() => {
      formatsOnce = null;
      return [];
    });
  return formatsOnce;
}

/** Run a tool; resolves with its ok envelope, rejects with ApiError carrying the tool's sentence. */
export async function callTool(name, args = {}) {
  const headers = apiHeaders({ 'content-type': 'application/json' });
  let res;
  try {
    res = await fetch(`api/tools/${encodeURIComponent(name)}`, { method: 'POST', headers, body: JSON.stringify(args) });
  } catch (err) {
    throw new ApiError(`Could not reach the Hindsight server (${err.message}). Is \`hindsight serve\` still running?`, 'NETWORK', 0);
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (body && body.status === 'ok') return body;
  if (res.status === 401 || (body && body.code === 'UNAUTHORIZED')) {
    throw new ApiError(
      (body && body.error) || 'This server needs an access token. Open the URL `hindsight serve` printed (it carries ?token=), or enter the token below.',
      'UNAUTHORIZED',
      401,
    );
  }
  if (body && body.status === 'error') throw new ApiError(body.error, body.code, res.status);
  throw new ApiError(`The server answered ${res.status} ${res.statusText} without a tool result for ${name}.`, 'HTTP', res.status);
}
