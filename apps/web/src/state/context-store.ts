import type { ContextInspection } from "@mcp-chat-host/protocol";
import { create } from "zustand";

/** What the model was told about the apps, per chat, as last reported by the server. */
export interface ContextState {
  byChat: Record<string, ContextInspection>;
  /** Records a chat's context (`context:built`, or the answer to `context:inspect`). */
  record(inspection: ContextInspection): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

/** The context inspector's store. */
export const useContextStore = create<ContextState>()((set) => ({
  byChat: {},
  record(inspection) {
    set((state) => ({ byChat: { ...state.byChat, [inspection.chatId]: inspection } }));
  },
  reset() {
    set({ byChat: {} });
  },
}));
