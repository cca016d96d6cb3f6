import type { HostSliceCreator } from "./host-state";
import type { ContextSlice } from "./types/context";

/** The context slice. */
export const createContextSlice: HostSliceCreator<ContextSlice> = (set) => ({
  contextByChat: {},
  recordContext(inspection) {
    set((state) => ({
      contextByChat: { ...state.contextByChat, [inspection.chatId]: inspection },
    }));
  },
});
