import type { OnAppCall } from "../gate/app-call-gate";

/**
 * Every `onAppCall` hook registered in a session, by source key. A card restored from a saved
 * conversation has no chat of its own to ask, so its page calls pass every hook registered for
 * its source.
 */
export class SourceHooks {
  readonly #bySource = new Map<string, Set<OnAppCall>>();

  /** Registers a hook for a source (once, however often it is added). */
  add(sourceKey: string, hook: OnAppCall): void {
    const hooks = this.#bySource.get(sourceKey) ?? new Set<OnAppCall>();
    hooks.add(hook);
    this.#bySource.set(sourceKey, hooks);
  }

  /** The hooks registered for a source, in the order they were added. */
  of(sourceKey: string): OnAppCall[] {
    return [...(this.#bySource.get(sourceKey) ?? [])];
  }
}
