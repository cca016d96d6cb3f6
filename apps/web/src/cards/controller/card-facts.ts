// A card's controller learns what the server says about its card (the arguments as the model
// writes them, the opening call's result or cancellation, the server's close) from the card's
// entry in the page's store, the one place these facts are kept: whatever fills the `cards` slice,
// the view hears the same facts the page shows. What changed is handed on in the order the view
// must hear it: arguments (guesses, then the final ones), then the outcome, then the close.
import type { CardEntry, CardEntryAccess } from "../../state/types/cards";

/** What a card does with each new fact. */
export interface CardFactHandlers {
  /** The model wrote more of the arguments. */
  inputPartial: (args: Record<string, unknown>) => void;
  /** The arguments are final. */
  input: (args: Record<string, unknown>) => void;
  result: (result: Record<string, unknown>) => void;
  cancelled: (reason: string) => void;
  /** The server closed the card. */
  closedByServer: (reason: string) => void;
}

/** Hands on what changed from `before` to `entry`, in the order the view must hear it. */
function handOn(entry: CardEntry, before: CardEntry | undefined, handlers: CardFactHandlers): void {
  if (entry.arguments !== before?.arguments || entry.inputFinal !== before.inputFinal) {
    if (entry.inputFinal) handlers.input(entry.arguments);
    else handlers.inputPartial(entry.arguments);
  }
  if (entry.result !== null) {
    if (entry.result !== before?.result) handlers.result(entry.result);
  } else if (entry.cancelled !== null && entry.cancelled !== before?.cancelled) {
    handlers.cancelled(entry.cancelled);
  }
  if (entry.closedByServer !== null && entry.closedByServer !== before?.closedByServer) {
    handlers.closedByServer(entry.closedByServer);
  }
}

/**
 * Follows one card's entry: first what changed since `known` (the entry the card started from),
 * then every later change.
 *
 * @param known - the entry the card's view was set up from, if the page held one.
 * @returns a function that stops following it.
 */
export function followCardFacts(
  access: CardEntryAccess,
  instanceId: string,
  known: CardEntry | undefined,
  handlers: CardFactHandlers,
): () => void {
  let last = known;
  const heard = (entry: CardEntry) => {
    const before = last;
    last = entry;
    handOn(entry, before, handlers);
  };
  const now = access.get(instanceId);
  if (now !== undefined && now !== known) heard(now);
  return access.watch(instanceId, heard);
}
