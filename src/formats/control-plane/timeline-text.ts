// Control Plane rows in compact mode: a TURN_RECORDED carries the user's message and the
// response, which compact mode replaces with their sizes.

import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const planeIsText = (e: StoredEvent): boolean => e.type === 'TURN_RECORDED';

export function planeTextFreeSummary(e: StoredEvent, line: Obj | null): string {
  const m = asObj(line?.metadata);
  const turn = `Turn ${e.turn ?? '?'} recorded`;
  const user = str(m?.user_message);
  const response = str(m?.response);
  if (user === undefined || response === undefined) return turn;
  return `${turn} (user ${user.length} chars, response ${response.length} chars)`;
}
