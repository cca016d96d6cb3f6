import { maximumLogEntries } from "./types/card-view-state";
import type { HostSliceCreator } from "./host-state";
import type { CardViewsSlice } from "./types/card-views";

/** The card views slice. */
export const createCardViewsSlice: HostSliceCreator<CardViewsSlice> = (set) => ({
  cardViews: {},
  putCardView(instanceId, view) {
    set((state) => ({ cardViews: { ...state.cardViews, [instanceId]: view } }));
  },
  patchCardView(instanceId, patch) {
    set((state) => {
      const current = state.cardViews[instanceId];
      if (current === undefined) return state;
      return { cardViews: { ...state.cardViews, [instanceId]: { ...current, ...patch } } };
    });
  },
  appendCardLog(instanceId, entry) {
    set((state) => {
      const current = state.cardViews[instanceId];
      if (current === undefined) return state;
      const log = [...current.log, entry].slice(-maximumLogEntries);
      return { cardViews: { ...state.cardViews, [instanceId]: { ...current, log } } };
    });
  },
  removeCardView(instanceId) {
    set((state) => {
      if (!(instanceId in state.cardViews)) return state;
      const cardViews = { ...state.cardViews };
      delete cardViews[instanceId];
      return { cardViews };
    });
  },
});
