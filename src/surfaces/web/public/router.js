// Hash routes (#/sessions, #/session/<id>, #/usage, #/raw/<id>): the server only ever serves static files.

/** Parse location.hash into { parts: decoded path segments, params: URLSearchParams }. */
export function parseHash(hash) {
  const raw = hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const parts = path.split('/').filter((p) => p !== '').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  return { parts, params };
}

/** Build '#/a/b?x=1' from segments and params (values encoded; empty params left out). */
export function route(parts, params = {}) {
  const path = parts.map((p) => encodeURIComponent(String(p))).join('/');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

export function sessionHref(id, params = {}) {
  return route(['session', id], params);
}

/** The raw evidence of one line: session, its ledger, the file and the line number in that file. */
export function evidenceHref(sessionId, ledger, file, line) {
  return route(['raw', sessionId], { ledger, file, line });
}
