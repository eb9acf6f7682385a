// A typed publish/subscribe bus with two kinds of subscriber (seed §12):
// - lifecycle handlers: fire-and-forget; every handler runs, and one that throws or rejects is
//   isolated (reported to onHandlerError, never to the emitter), so an extension cannot break a turn;
// - control hooks: run one after another, awaited; the first that answers {allow:false} decides and
//   the rest are not asked. They are how policy (permissions, a user's confirmation) gates an action.

export interface ControlDecision {
  allow: boolean;
  reason?: string;
}

/** What emitControl answers: allowed, or refused with the refusing hook's reason and name. */
export interface ControlOutcome {
  allow: boolean;
  reason?: string;
  /** The name the refusing hook was registered under (its function name when none was given). */
  blockedBy?: string;
}

export type EventHandler<P> = (payload: P) => void | Promise<void>;
export type ControlHook<P> = (payload: P) => ControlDecision | Promise<ControlDecision>;
export type AnyEventHandler<M> = (event: { [K in keyof M]: { name: K; payload: M[K] } }[keyof M]) => void | Promise<void>;

export interface HandlerErrorInfo {
  /** The event whose handler failed. */
  event: string;
  error: unknown;
}

export interface EventBusOptions {
  /** Told about every handler that threw or rejected; without it such errors are dropped. */
  onHandlerError?: (info: HandlerErrorInfo) => void;
}

type Unsubscribe = () => void;

/**
 * `Events` maps lifecycle event names to payloads, `Controls` control hook names to payloads.
 * After destroy() every subscription is gone and new ones are refused.
 */
export class EventBus<Events extends object, Controls extends object = Record<never, never>> {
  private readonly handlers = new Map<keyof Events, Set<EventHandler<never>>>();
  private readonly anyHandlers = new Set<AnyEventHandler<Events>>();
  private readonly hooks = new Map<keyof Controls, { name: string; hook: ControlHook<never> }[]>();
  private destroyed = false;

  constructor(private readonly options: EventBusOptions = {}) {}

  on<K extends keyof Events>(name: K, handler: EventHandler<Events[K]>): Unsubscribe {
    this.assertLive('on');
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler as EventHandler<never>);
    return () => void set.delete(handler as EventHandler<never>);
  }

  /** A handler for every lifecycle event (after the event's own handlers). */
  onAny(handler: AnyEventHandler<Events>): Unsubscribe {
    this.assertLive('onAny');
    this.anyHandlers.add(handler);
    return () => void this.anyHandlers.delete(handler);
  }

  /** Run every handler of `name`, then every onAny handler; returns at once, errors go to onHandlerError. */
  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    if (this.destroyed) return;
    for (const handler of [...(this.handlers.get(name) ?? [])]) this.invoke(name, () => (handler as EventHandler<Events[K]>)(payload));
    const event = { name, payload } as Parameters<AnyEventHandler<Events>>[0];
    for (const handler of [...this.anyHandlers]) this.invoke(name, () => handler(event));
  }

  /** Add a control hook; hooks are asked in the order they were added. */
  onControl<K extends keyof Controls>(name: K, hook: ControlHook<Controls[K]>, hookName?: string): Unsubscribe {
    this.assertLive('onControl');
    let list = this.hooks.get(name);
    if (!list) this.hooks.set(name, (list = []));
    const entry = { name: hookName ?? (hook.name || `hook ${list.length + 1}`), hook: hook as ControlHook<never> };
    list.push(entry);
    return () => {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Ask the hooks of `name` in order; the first refusal wins. A hook that throws refuses (fail
   * closed: a broken policy must not let an action through), with the error as its reason.
   */
  async emitControl<K extends keyof Controls>(name: K, payload: Controls[K]): Promise<ControlOutcome> {
    if (this.destroyed) return { allow: true };
    for (const { name: hookName, hook } of [...(this.hooks.get(name) ?? [])]) {
      let decision: ControlDecision;
      try {
        decision = await (hook as ControlHook<Controls[K]>)(payload);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { allow: false, reason: `the ${String(name)} hook "${hookName}" failed: ${message}`, blockedBy: hookName };
      }
      if (decision && decision.allow === false) {
        return { allow: false, reason: decision.reason ?? `refused by the ${String(name)} hook "${hookName}"`, blockedBy: hookName };
      }
    }
    return { allow: true };
  }

  /** Drop every handler and hook; later emits do nothing and later subscriptions throw. */
  destroy(): void {
    this.destroyed = true;
    this.handlers.clear();
    this.anyHandlers.clear();
    this.hooks.clear();
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  private invoke(event: keyof Events, run: () => void | Promise<void>): void {
    const report = (error: unknown): void => {
      try {
        this.options.onHandlerError?.({ event: String(event), error });
      } catch {
        // The error reporter itself failed: nothing left to tell.
      }
    };
    try {
      const result = run();
      if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, report);
    } catch (error) {
      report(error);
    }
  }

  private assertLive(method: string): void {
    if (this.destroyed) throw new Error(`EventBus.${method}: the bus was destroyed`);
  }
}
