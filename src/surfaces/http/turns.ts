// One tool call per event-loop turn. Tool handlers are synchronous SQLite work; answered back to
// back, a busy server starves the rest of the loop: libuv accepts one new connection per turn and
// reads up to 32 requests from a socket in a row, so under load some clients waited 30 s to be
// accepted at all. Starting each call in its own turn lets accepts and reads happen in between,
// and calls start in arrival order.

/**
 * A gate: `await take()` resolves in arrival order, one resolution per event-loop turn.
 *
 * @example const take = turnTaker(); await take(); runTheToolNow();
 */
export function turnTaker(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    // An immediate queued from an immediate runs in the next turn, after the poll phase.
    setImmediate(() => {
      waiting.shift()?.();
      if (waiting.length > 0) schedule();
      else scheduled = false;
    });
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) schedule();
    });
}
