import { useApprovalsStore } from "./approvals-store";
import { useCardsStore } from "./cards-store";
import { useComposerStore } from "./composer-store";
import { useContextStore } from "./context-store";
import { useConversationsStore } from "./conversations-store";
import { useMessagesStore } from "./messages-store";
import { usePermissionGrantsStore } from "./permission-grants-store";
import { useSessionStore } from "./session-store";
import { useToolsStore } from "./tools-store";

/** Puts every store (except the theme) back in its initial state; for tests. */
export function resetStores(): void {
  useApprovalsStore.getState().reset();
  useCardsStore.getState().reset();
  useComposerStore.getState().reset();
  useContextStore.getState().reset();
  useConversationsStore.getState().reset();
  useMessagesStore.getState().reset();
  usePermissionGrantsStore.getState().reset();
  useSessionStore.getState().reset();
  useToolsStore.getState().reset();
}
