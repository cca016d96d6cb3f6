import type { CardDescriptor } from "@mcp-chat-host/protocol";
import { create } from "zustand";
import type { CardOrigins } from "./part-placement";

/**
 * A card as the conversation knows it: its descriptor and what happened to it since. The live
 * card's own state (display mode, size, log, when it last reported) is the card view's store.
 */
export interface CardEntry {
  descriptor: CardDescriptor;
  /** The opening call's result (from the descriptor, or `card:result`), or null while it runs. */
  result: Record<string, unknown> | null;
  /** Why the opening call has no result (failed or stopped), or null. */
  cancelled: string | null;
  /**
   * Why the card is closed and off the page (the person closed it, or it was saved closed), or
   * null while it is shown.
   */
  closed: string | null;
  /** Why the server closed the card (`card:closed`); the card stays, showing its fallback. */
  closedByServer: string | null;
}

/** Cards and panes by instance id. */
export interface CardsState {
  cards: Record<string, CardEntry>;
  /** Replaces the conversation's cards and the session's panes (from a snapshot). */
  replace(cards: CardDescriptor[], panes: CardDescriptor[]): void;
  /** Replaces the conversation's cards only (opening another conversation); panes stay. */
  replaceConversationCards(cards: CardDescriptor[]): void;
  /** Adds a card the server committed (`card:opened`); a known card keeps its later state. */
  opened(card: CardDescriptor): void;
  /** The opening call returned (`card:result`). */
  resulted(instanceId: string, result: Record<string, unknown>): void;
  /** The opening call failed or was stopped (`card:cancelled`). */
  cancelled(instanceId: string, reason: string): void;
  /** The person closed the card (it was torn down): it leaves the page. */
  closed(instanceId: string, reason: string): void;
  /** The server closed the card (`card:closed`). */
  closedByServer(instanceId: string, reason: string): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

function entryOf(descriptor: CardDescriptor): CardEntry {
  return {
    descriptor,
    result: descriptor.result,
    cancelled: descriptor.cancelled ?? null,
    closed: descriptor.closed === true ? "closed" : null,
    closedByServer: null,
  };
}

function update(
  cards: Record<string, CardEntry>,
  instanceId: string,
  change: (entry: CardEntry) => CardEntry,
): Record<string, CardEntry> {
  const entry = cards[instanceId];
  return entry === undefined ? cards : { ...cards, [instanceId]: change(entry) };
}

/** The cards store. */
export const useCardsStore = create<CardsState>()((set) => ({
  cards: {},
  replace(cards, panes) {
    set({
      cards: Object.fromEntries(
        [...cards, ...panes].map((descriptor) => [descriptor.instanceId, entryOf(descriptor)]),
      ),
    });
  },
  replaceConversationCards(cards) {
    set((state) => {
      const kept = Object.entries(state.cards).filter(
        ([, entry]) => entry.descriptor.kind === "pane",
      );
      return {
        cards: Object.fromEntries([
          ...kept,
          ...cards.map((descriptor) => [descriptor.instanceId, entryOf(descriptor)] as const),
        ]),
      };
    });
  },
  opened(card) {
    set((state) =>
      state.cards[card.instanceId] !== undefined
        ? state
        : { cards: { ...state.cards, [card.instanceId]: entryOf(card) } },
    );
  },
  resulted(instanceId, result) {
    set((state) => ({
      cards: update(state.cards, instanceId, (entry) => ({ ...entry, result, cancelled: null })),
    }));
  },
  cancelled(instanceId, reason) {
    set((state) => ({
      cards: update(state.cards, instanceId, (entry) => ({ ...entry, cancelled: reason })),
    }));
  },
  closed(instanceId, reason) {
    set((state) => ({
      cards: update(state.cards, instanceId, (entry) => ({ ...entry, closed: reason })),
    }));
  },
  closedByServer(instanceId, reason) {
    set((state) => ({
      cards: update(state.cards, instanceId, (entry) => ({ ...entry, closedByServer: reason })),
    }));
  },
  reset() {
    set({ cards: {} });
  },
}));

/**
 * The tool behind each card the page knows (descriptors never change once opened), to put a card
 * right after the call that opened it (`part-placement.ts`).
 */
export const cardOrigins: CardOrigins = (instanceId) => {
  const descriptor = useCardsStore.getState().cards[instanceId]?.descriptor;
  return descriptor === undefined
    ? undefined
    : { tool: descriptor.tool, source: descriptor.source };
};
