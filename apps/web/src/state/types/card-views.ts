import type { CardLogEntry, CardViewState } from "./card-view-state";

/** What the page shows of each live card, by instance id; its controller writes it. */
export interface CardViewsSlice {
  cardViews: Readonly<Record<string, CardViewState>>;
  /** Creates a card's shown state (or replaces it). */
  putCardView(instanceId: string, view: CardViewState): void;
  /** Changes some fields of a card's shown state; ignored for an unknown card. */
  patchCardView(instanceId: string, patch: Partial<CardViewState>): void;
  /** Adds a line to a card's log, keeping at most `maximumLogEntries` (`card-view-state.ts`). */
  appendCardLog(instanceId: string, entry: CardLogEntry): void;
  /** Forgets a card's shown state. */
  removeCardView(instanceId: string): void;
}
