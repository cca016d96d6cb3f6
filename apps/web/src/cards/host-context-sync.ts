// The host context a view knows, and what changed since it last heard. The view got the whole
// context in its `ui/initialize` answer; afterwards it gets only the changed fields, in
// `ui/notifications/host-context-changed` (the SDK's `setHostContext` does the same, but sends
// at once and drops the send's errors; the card sends only after `initialized`, and logs them).
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

/** Fields sent only in the `ui/initialize` answer, never as changes. */
const initialiseOnly = new Set(["toolInfo"]);

/** Tracks a card's host context and the part of it its view has not heard yet. */
export class HostContextSync {
  #current: McpUiHostContext;
  #known: McpUiHostContext;

  /**
   * @param initial - the context given to the bridge, which the view gets in its
   *   `ui/initialize` answer.
   */
  constructor(initial: McpUiHostContext) {
    this.#current = initial;
    this.#known = initial;
  }

  /** The context now. */
  get current(): McpUiHostContext {
    return this.#current;
  }

  /** Changes some fields (top-level; a field's whole value is replaced). */
  update(patch: McpUiHostContext): void {
    this.#current = { ...this.#current, ...patch };
  }

  /**
   * The fields that differ from what the view knows, compared as JSON; the view is then assumed
   * to know the current context.
   *
   * @returns the changed fields, or null when nothing changed.
   */
  takeChanges(): McpUiHostContext | null {
    const changes: McpUiHostContext = {};
    let changed = false;
    for (const [key, value] of Object.entries(this.#current)) {
      if (initialiseOnly.has(key)) continue;
      if (JSON.stringify(this.#known[key]) === JSON.stringify(value)) continue;
      changes[key] = value;
      changed = true;
    }
    this.#known = this.#current;
    return changed ? changes : null;
  }
}
