import { useEffect, useState } from "react";
import { openConversation } from "./actions/conversation-actions";
import { startSandboxWarmup } from "./cards/sandbox-warmup";
import { ApprovalDialog } from "./components/approval/approval-dialog";
import { ChatColumn } from "./components/chat/chat-column";
import { ElicitationDialog } from "./components/elicitation/elicitation-dialog";
import { AppHeader } from "./components/layout/app-header";
import { ConnectionBanner } from "./components/layout/connection-banner";
import { NoticeList } from "./components/layout/notice-list";
import { PanesPanel } from "./components/layout/panes-panel";
import { useThemeSync } from "./components/layout/use-theme-sync";
import { ConversationSidebar } from "./components/sidebar/conversation-sidebar";
import { useSocket } from "./socket/socket-context";
import { useHostStore } from "./state/host-store";
import { conversationIdFromHash } from "./url/conversation-hash";

/** Opens the conversation the address bar names when the person changes the hash by hand. */
function useHashNavigation(): void {
  const socket = useSocket();
  useEffect(() => {
    const onHashChange = () => {
      const wanted = conversationIdFromHash(window.location.hash);
      if (wanted !== null && wanted !== useHostStore.getState().currentConversationId) {
        void openConversation(socket, wanted);
      }
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [socket]);
}

/**
 * The whole page: the connection banner, the header, the conversation sidebar, one column per
 * chat of the session, the side panel of panes, the approval dialog and the notices.
 */
export function App() {
  const chats = useHostStore((state) => state.chats);
  const status = useHostStore((state) => state.status);
  const [sidebarOpen, setSidebarOpen] = useState(
    () => globalThis.matchMedia?.("(min-width: 720px)").matches ?? true,
  );
  useThemeSync();
  useHashNavigation();
  // The sandbox's browser processes, started while the page is idle (see sandbox-warmup.ts).
  useEffect(() => startSandboxWarmup(), []);
  const several = chats.length > 1;

  return (
    <div className="app" data-testid="app">
      <a className="skip-link" href="#chats">
        Skip to the conversation
      </a>
      <ConnectionBanner />
      <AppHeader
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen((open) => !open)}
      />
      <div className="app-body">
        {sidebarOpen ? (
          <div id="sidebar" className="sidebar-slot">
            <ConversationSidebar />
          </div>
        ) : null}
        <main
          id="chats"
          className={`chats${several ? " chats-several" : ""}`}
          data-chat-count={chats.length}
        >
          {chats.length === 0 ? (
            <p className="chats-loading" data-testid="chats-loading">
              {status === "connected" ? "This session has no chat." : "Loading…"}
            </p>
          ) : (
            chats.map((chat, index) => (
              <ChatColumn
                key={chat.id}
                chat={chat}
                showTitle={several}
                ownsUnassignedCards={!several}
                showsSignIns={index === 0}
              />
            ))
          )}
        </main>
        <PanesPanel showUnassignedCards={several} />
      </div>
      <ApprovalDialog />
      <ElicitationDialog />
      <NoticeList />
    </div>
  );
}
