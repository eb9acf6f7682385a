// Which session and work order a ledger entry belongs to. Entries name their session in several
// places (formats.md); budget and gateway entries use contract ids or scope keys as
// submission_id, so the submission alone is not enough.

type Obj = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** The entry's metadata object ({} when absent or not an object). */
export function metadataOf(entry: Obj): Obj {
  return obj(entry.metadata) ?? {};
}

/** Work-order id: provenance, metadata fields, or a `WO-` submission id. */
export function workOrderOf(entry: Obj): string | undefined {
  const m = metadataOf(entry);
  const sub = str(entry.submission_id);
  return (
    str(obj(m.provenance)?.work_order_id) ??
    str(m.work_order_id) ??
    str(m.wo_id) ??
    str(m.scope_work_order_id) ??
    (sub?.startsWith('WO-') ? sub : undefined)
  );
}

const WO_SESSION_RE = /^WO-(SES-.+)-\d+$/;

/**
 * Session id of an entry: metadata.session_id, provenance.session_id, _session_id,
 * scope_session_id, a `SES-` submission id (first `/` part of a scope key), else the session
 * embedded in a `WO-<SES-…>-NNN` work order.
 */
export function sessionOf(entry: Obj, workOrder: string | undefined = workOrderOf(entry)): string | undefined {
  const m = metadataOf(entry);
  const direct = str(m.session_id) ?? str(obj(m.provenance)?.session_id) ?? str(m._session_id) ?? str(m.scope_session_id);
  if (direct) return direct;
  const sub = str(entry.submission_id);
  if (sub?.startsWith('SES-')) return sub.split('/')[0];
  const wo = workOrder ? WO_SESSION_RE.exec(workOrder) : null;
  return wo?.[1];
}
