// Each write of the store as a span of its own, named for the operation; the values written (and
// any SQL) never go into it. Only made while tracing is on: a host without an OTLP endpoint keeps
// its store as it is, with no wrapper in front.
import { inSpan, tracingOn } from "./spans";
import type { HostStore } from "../store/host-store";

/** The store's methods that write (reads are not traced: they are many and cheap). */
const WRITES: ReadonlySet<string> = new Set<keyof HostStore>([
  "ensureUser",
  "createConversation",
  "renameConversation",
  "deleteConversation",
  "appendMessage",
  "updateMessage",
  "markInterruptedReplies",
  "interruptOrphanedReplies",
  "interruptRepliesOf",
  "saveSignInToken",
  "spendSignInToken",
  "saveCard",
  "closeCard",
  "rememberApproval",
  "appendAudit",
  "appendAudits",
  "importConversation",
]);

/**
 * The store with a span around each write (`store <operation>`, kind client, with
 * `db.system.name` and `db.operation.name`), a child of whatever span is active (a socket event, a
 * turn, a tool call). While tracing is off, the store itself.
 *
 * @param system - `sqlite`, `postgresql` (or `other_sql` for a store the embedder made), as
 *   `db.system.name` says it.
 */
export function tracedStore<S extends HostStore>(store: S, system: string): S {
  if (!tracingOn()) return store;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== "string" || !WRITES.has(property) || typeof value !== "function") {
        return typeof value === "function"
          ? (value as (...values: unknown[]) => unknown).bind(target)
          : value;
      }
      return (...args: unknown[]) =>
        inSpan(
          `store ${property}`,
          { "db.system.name": system, "db.operation.name": property },
          () => (value as (...values: unknown[]) => unknown).apply(target, args),
          "client",
        );
    },
  });
}
