import { useHostStore } from "../../state/host-store";
import { MenuIcon } from "../../ui/icons";
import { ServersButton } from "../servers/servers-button";
import { SignOutButton } from "./sign-out-button";
import { ThemeToggle } from "./theme-toggle";

/**
 * The top bar: the sidebar button, the open conversation's title, the model's name, the person's
 * MCP servers, the theme, and signing out where the sign-in mode has one.
 */
export function AppHeader(props: { sidebarOpen: boolean; onToggleSidebar: () => void }) {
  const model = useHostStore((state) => state.model);
  const title = useHostStore((state) => {
    const current = state.conversations.find((item) => item.id === state.currentConversationId);
    return current?.title ?? null;
  });
  return (
    <header className="app-header" data-testid="app-header">
      <button
        type="button"
        className="icon-button"
        data-testid="sidebar-toggle"
        aria-label={props.sidebarOpen ? "Hide conversations" : "Show conversations"}
        aria-expanded={props.sidebarOpen}
        aria-controls="sidebar"
        onClick={props.onToggleSidebar}
      >
        <MenuIcon />
      </button>
      <span className="app-name">mcp-chat-host</span>
      <h1 className="app-title" data-testid="conversation-title">
        {title ?? "New conversation"}
      </h1>
      <span className="app-header-end">
        {model !== null ? (
          <span className="model-name" data-testid="model-name" title="The model answering">
            {model}
          </span>
        ) : null}
        <ServersButton />
        <ThemeToggle />
        <SignOutButton />
      </span>
    </header>
  );
}
