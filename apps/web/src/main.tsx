// First: configures zod before any module builds a schema.
import "./zod-setup";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { leaveFullscreen } from "./cards/fullscreen-owner";
import { onHostQuestion } from "./consent/host-question";
import { bindServerEvents } from "./socket/bind-server-events";
import { createHostSocket } from "./socket/create-host-socket";
import { startSessionLifecycle } from "./session-lifecycle";
import { SocketProvider } from "./socket/socket-context";
import { tabIdFrom } from "./socket/tab-id";
import "./styles/theme.css";
import "./styles/app.css";
import "./styles/layers.css";

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element.");

// The socket and its listeners live as long as the page: one socket per tab.
const socket = createHostSocket(tabIdFrom(sessionStorageOrUndefined()));
bindServerEvents(socket);
const lifecycle = startSessionLifecycle(socket);
// A question of the host takes the card in full screen, if any, back inline (fullscreen-owner.ts).
onHostQuestion(leaveFullscreen);

createRoot(root).render(
  <StrictMode>
    <SocketProvider value={{ socket, retry: lifecycle.retry }}>
      <App />
    </SocketProvider>
  </StrictMode>,
);
