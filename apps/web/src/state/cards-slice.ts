import type { CardDescriptor } from "@mcp-chat-host/protocol";
import type { HostSliceCreator } from "./host-state";
import type { CardEntry, CardsSlice } from "./types/cards";

/** A card's entry as its descriptor says (what the server said when it sent the descriptor). */
export function cardEntryOf(descriptor: CardDescriptor): CardEntry {
  return {
    descriptor,
    arguments: descriptor.arguments,
    inputFinal: descriptor.inputStreaming !== true,
    result: descriptor.result,
    cancelled: descriptor.cancelled ?? null,
    closed: descriptor.closed === true ? "closed" : null,
    closedByServer: null,
  };
}

/** Cards by instance id. */
export function cardsById(descriptors: readonly CardDescriptor[]): Record<string, CardEntry> {
  return Object.fromEntries(
    descriptors.map((descriptor) => [descriptor.instanceId, cardEntryOf(descriptor)]),
  );
}

/** The session's panes among the cards. */
export function paneEntries(cards: Record<string, CardEntry>): Record<string, CardEntry> {
  return Object.fromEntries(
    Object.entries(cards).filter(([, entry]) => entry.descriptor.kind === "pane"),
  );
}

/** The cards slice. */
export const createCardsSlice: HostSliceCreator<CardsSlice> = (set) => {
  function change(instanceId: string, changed: (entry: CardEntry) => CardEntry): void {
    set((state) => {
      const entry = state.cards[instanceId];
      if (entry === undefined) return state;
      const next = changed(entry);
      return next === entry ? state : { cards: { ...state.cards, [instanceId]: next } };
    });
  }
  return {
    cards: {},
    cardInputChanged(instanceId, args, final) {
      change(instanceId, (entry) =>
        entry.inputFinal ? entry : { ...entry, arguments: args, inputFinal: final },
      );
    },
    cardResulted(instanceId, result) {
      change(instanceId, (entry) => ({ ...entry, result, cancelled: null }));
    },
    cardCancelled(instanceId, reason) {
      change(instanceId, (entry) => ({ ...entry, cancelled: reason }));
    },
    cardClosed(instanceId, reason) {
      change(instanceId, (entry) => ({ ...entry, closed: reason }));
    },
    cardClosedByServer(instanceId, reason) {
      change(instanceId, (entry) => ({ ...entry, closedByServer: reason }));
    },
  };
};
