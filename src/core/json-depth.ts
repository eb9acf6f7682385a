// Walks over parsed JSON that never use the call stack. JSON.parse takes any depth (V8 parses
// iteratively), but a recursive walk over a 3,000-level line overflows the stack, and
// JSON.stringify overflows somewhere under 10,000 levels. Evidence lines are whatever agents wrote,
// so every value a tool returns is first bounded here: containers below MAX_JSON_DEPTH levels are
// replaced by a marker saying how deep the value went (the exact line stays in raw_lines).

/** Nesting levels a returned value keeps; deeper containers become a marker string. */
export const MAX_JSON_DEPTH = 1_000;

export const depthMarker = (levels: number): string => `…[cut: nested ${levels.toLocaleString('en-US')} levels deep, deeper than ${MAX_JSON_DEPTH.toLocaleString('en-US')}; raw_lines returns the line]`;

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/**
 * Levels walked by recursion before the walk goes on with a stack of its own. Recursion allocates
 * nothing per value, where the stack holds a pair and a list of children per container: every tool
 * answer is measured here (runTool), and a 500-row usage report took ~10 ms of CPU in a fresh
 * process the stack's way. 200 frames are far from any call-stack limit.
 */
const RECURSIVE_LEVELS = 200;

/** How many container levels `value` nests (0 for a scalar), without overflowing the stack. Stops counting at `stopAt`. */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  return isContainer(value) ? depthFrom(value, 1, stopAt) : 0;
}

/** The deepest level reached from `node`, itself at level `depth` (the answer stops at the first level ≥ stopAt). */
function depthFrom(node: Container, depth: number, stopAt: number): number {
  if (depth >= stopAt) return depth;
  if (depth >= RECURSIVE_LEVELS) return depth - 1 + stackDepth(node, stopAt - (depth - 1));
  let max = depth;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (isContainer(child)) {
        const d = depthFrom(child, depth + 1, stopAt);
        if (d > max && (max = d) >= stopAt) return max;
      }
    }
  } else {
    // Own enumerable keys, as Object.values gives them, without making the list.
    for (const key in node) {
      if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
      const child = node[key];
      if (isContainer(child)) {
        const d = depthFrom(child, depth + 1, stopAt);
        if (d > max && (max = d) >= stopAt) return max;
      }
    }
  }
  return max;
}

/** jsonDepth with a stack of its own: for what lies below RECURSIVE_LEVELS (a line 100,000 levels deep). */
function stackDepth(value: Container, stopAt: number): number {
  let max = 0;
  const stack: [Container, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (max >= stopAt) return max;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (isContainer(child)) stack.push([child, depth + 1]);
  }
  return max;
}

/**
 * A copy of a JSON value with every string passed through `mapString` and every container deeper
 * than `maxDepth` replaced by a depth marker, built without recursion. Keys keep their order.
 *
 * @example mapJson({ a: ['x'] }, (s) => s.toUpperCase()) // { a: ['X'] }
 */
export function mapJson(value: unknown, mapString: (s: string) => string = (s) => s, maxDepth = MAX_JSON_DEPTH): unknown {
  if (typeof value === 'string') return mapString(value);
  if (!isContainer(value)) return value;
  // Each frame fills one copy; children are copied when their frame is popped.
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: { from: Container; to: Container; depth: number }[] = [{ from: value, to: root, depth: 1 }];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop()!;
    const keys = Array.isArray(from) ? null : Object.keys(from);
    const n = keys ? keys.length : (from as unknown[]).length;
    for (let i = 0; i < n; i++) {
      const key = keys ? keys[i]! : i;
      const child = (from as Record<string | number, unknown>)[key];
      let copy: unknown = child;
      if (typeof child === 'string') copy = mapString(child);
      else if (isContainer(child)) {
        if (depth >= maxDepth) copy = depthMarker(depth + jsonDepth(child));
        else {
          copy = Array.isArray(child) ? [] : {};
          stack.push({ from: child, to: copy as Container, depth: depth + 1 });
        }
      }
      if (key === '__proto__') {
        // JSON.parse makes "__proto__" an own key; plain assignment would set the prototype.
        Object.defineProperty(to, key, { value: copy, enumerable: true, writable: true, configurable: true });
      } else (to as Record<string | number, unknown>)[key] = copy;
    }
  }
  return root;
}

/** `value` itself when it nests at most `maxDepth` levels, else a bounded copy (see mapJson). */
export function boundDepth<T>(value: T, maxDepth = MAX_JSON_DEPTH): T {
  return jsonDepth(value, maxDepth + 1) > maxDepth ? (mapJson(value, undefined, maxDepth) as T) : value;
}
