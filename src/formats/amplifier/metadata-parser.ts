// metadata.json → session facts (title, working dir, parent, kind, agent, bundle, model…). When
// the file is not valid JSON, the previous version in metadata.json.backup stands in for it.

import { readFileSync, statSync } from 'node:fs';
import { HUGE_LINE_BYTES, type SessionFacts, type SessionKind } from '../../core/model.js';
import type { LineContext, LineParser, SourceFile } from '../importer.js';
import { isSubagentId, parseSubagentId } from './layout.js';
import { asNumber, asRecord, asString, clip } from './text.js';


/** Scalar fields copied to facts.attrs as they are (camelCased); `config` and the like are not. */
const SCALAR_ATTRS: Record<string, string> = {
  bundle: 'bundle',
  model: 'model',
  created: 'created',
  turn_count: 'metadataTurnCount',
  forked_from_turn: 'forkedFromTurn',
  forked_at: 'forkedAt',
  trace_id: 'traceId',
  child_span: 'childSpan',
  incremental: 'incremental',
  name_generated_at: 'nameGeneratedAt',
};

/** Decide the kind from the id shape and the parent link, as Amplifier itself does. */
export function kindFromMetadata(id: string, parentId: string | undefined): SessionKind {
  if (isSubagentId(id)) return 'subagent';
  if (parentId) return 'fork';
  return 'root';
}

/** Facts from one parsed metadata object (no I/O; shared with discovery's peek). */
export function factsFromMetadata(id: string, meta: Record<string, unknown>): SessionFacts {
  const parentId = asString(meta.parent_id) || undefined;
  const name = asString(meta.name)?.trim();
  const description = asString(meta.description)?.trim();
  const attrs: Record<string, unknown> = {};
  for (const [key, attr] of Object.entries(SCALAR_ATTRS)) {
    const v = meta[key];
    if (typeof v === 'string') attrs[attr] = clip(v, 200);
    else if (typeof v === 'number' || typeof v === 'boolean') attrs[attr] = v;
  }
  if (description) attrs.description = clip(description, 500);
  const facts: SessionFacts = { id, format: 'amplifier', kind: kindFromMetadata(id, parentId), attrs };
  if (parentId) facts.parentId = parentId;
  else if (!parseSubagentId(id)) facts.parentId = null;
  const title = name || description;
  if (title) facts.title = clip(title, 200);
  const workingDir = asString(meta.working_dir);
  if (workingDir) facts.projectPath = workingDir;
  const agent = asString(meta.agent_name);
  if (agent) facts.agentName = agent;
  return facts;
}

/** Read and parse a small JSON file; null when missing, too large or invalid. */
export function readSmallJson(path: string): Record<string, unknown> | null {
  try {
    // metadata.json is a few hundred bytes: the pipeline's one huge-line limit keeps a giant unread.
    if (statSync(path).size > HUGE_LINE_BYTES) return null;
    return asRecord(JSON.parse(readFileSync(path, 'utf8'))) ?? null;
  } catch {
    return null;
  }
}

export function createMetadataParser(file: SourceFile): LineParser {
  function apply(meta: Record<string, unknown>, ctx: LineContext): void {
    const id = file.sessionId;
    if (!id) return;
    const written = asString(meta.session_id);
    if (written && written !== id) {
      ctx.defect({
        severity: 'warning',
        kind: 'metadata_session_mismatch',
        line: null,
        message: `metadata.json names session ${clip(written, 80)} but sits in folder ${id}; the folder name is used`,
      });
    }
    if (asNumber(meta.turn_count) === undefined && meta.turn_count !== undefined) {
      ctx.defect({ severity: 'info', kind: 'metadata_field_type', line: null, message: 'turn_count is not a number' });
    }
    ctx.facts(factsFromMetadata(id, meta));
  }

  return {
    line() {
      // metadata.json is a document; the pipeline calls document() instead.
    },
    document(doc, ctx) {
      const meta = asRecord(doc);
      if (meta) return apply(meta, ctx);
      if (doc !== null) {
        ctx.defect({
          severity: 'warning',
          kind: 'metadata_not_object',
          line: null,
          message: 'metadata.json holds JSON that is not an object; its facts were ignored',
        });
        return;
      }
      // Invalid JSON (already reported by the pipeline): the writer keeps the previous version.
      const backupPath = `${file.path}.backup`;
      const backup = readSmallJson(backupPath);
      if (!backup) return;
      ctx.defect({
        severity: 'info',
        kind: 'metadata_backup_used',
        line: null,
        message: `metadata.json is not valid JSON; facts were read from ${file.relPath}.backup (the previous version) instead`,
      });
      apply(backup, ctx);
    },
    snapshot() {
      return null;
    },
  };
}
