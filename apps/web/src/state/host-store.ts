import { create } from "zustand";
import type { CardViewAccess } from "./types/card-view-state";
import type { CardEntryAccess } from "./types/cards";
import { createApprovalsSlice } from "./approvals-slice";
import { createCardViewsSlice } from "./card-views-slice";
import { createCardsSlice } from "./cards-slice";
import { createComposerSlice } from "./composer-slice";
import { createContextSlice } from "./context-slice";
import { createConversationsSlice } from "./conversations-slice";
import { createElicitationsSlice } from "./elicitations-slice";
import { createHostActions } from "./host-actions";
import type { HostState } from "./host-state";
import { createMessagesSlice } from "./messages-slice";
import { createServersSlice } from "./servers-slice";
import { createSessionSlice } from "./session-slice";
import { createToolsSlice } from "./tools-slice";

export type { HostState } from "./host-state";

/**
 * The page's one store (zustand), built from slices: the session, the conversation list, the open
 * conversation's messages, its cards and the session's panes, the live cards' shown state, tool
 * activity, the input boxes, approvals, the servers' questions, the model's context and the
 * person's MCP servers. Tests reset it with
 * `useHostStore.setState(useHostStore.getInitialState(), true)`.
 */
export const useHostStore = create<HostState>()((...api) => ({
  ...createSessionSlice(...api),
  ...createConversationsSlice(...api),
  ...createMessagesSlice(...api),
  ...createCardsSlice(...api),
  ...createCardViewsSlice(...api),
  ...createToolsSlice(...api),
  ...createComposerSlice(...api),
  ...createApprovalsSlice(...api),
  ...createElicitationsSlice(...api),
  ...createContextSlice(...api),
  ...createServersSlice(...api),
  ...createHostActions(...api),
}));

/** The live cards' shown state in {@link useHostStore}, as a card's controller reaches it. */
export const cardViewAccess: CardViewAccess = {
  put: (instanceId, view) => useHostStore.getState().putCardView(instanceId, view),
  patch: (instanceId, patch) => useHostStore.getState().patchCardView(instanceId, patch),
  appendLog: (instanceId, entry) => useHostStore.getState().appendCardLog(instanceId, entry),
  remove: (instanceId) => useHostStore.getState().removeCardView(instanceId),
  get: (instanceId) => useHostStore.getState().cardViews[instanceId],
};

/** The cards in {@link useHostStore}, as a card's controller follows its own. */
export const cardEntryAccess: CardEntryAccess = {
  get: (instanceId) => useHostStore.getState().cards[instanceId],
  watch: (instanceId, listener) =>
    useHostStore.subscribe((state, previous) => {
      const entry = state.cards[instanceId];
      if (entry !== undefined && entry !== previous.cards[instanceId]) listener(entry);
    }),
};
