import type { CardDescriptor } from "@mcp-chat-host/protocol";
import type { Transport } from "@modelcontextprotocol/client";
import type { PermissionGrantsAccess } from "../consent/permission-grants-access";
import type { AttachQueue } from "./attach-queue";
import type { AppBridgeConstructor } from "./card-bridge";
import type { PageActions } from "./card-page-requests";
import type { CardSocket } from "./card-socket";
import type { CardLogEntry, CardStoreAccess } from "./card-store";
import { SandboxTransport } from "./sandbox-transport";
import type { Theme } from "./style-variables";
import type { TimerFunctions } from "./teardown-with-timeout";

/** What a card tells the page around it. */
export interface CardCallbacks {
  /** The card was closed (close button, or its view asked) and torn down: remove it. */
  onClose: (instanceId: string) => void;
  /** The server filled a chat's input box with this card's message (`composer:fill`). */
  onCompose?: ((chatId: string, text: string) => void) | undefined;
  /** A line was added to the card's log. */
  onLog?: ((instanceId: string, entry: CardLogEntry) => void) | undefined;
}

/** Everything a card's controller works with. */
export interface CardControllerOptions {
  card: CardDescriptor;
  socket: CardSocket;
  /** The outer iframe (the sandbox proxy); the same element for the card's whole life. */
  iframe: HTMLIFrameElement;
  /** The stable container of the iframe, measured for `containerDimensions`. */
  holder: HTMLElement;
  theme: Theme;
  /** Returns the page's current callbacks (read at each use, so they may change). */
  callbacks: () => CardCallbacks;
  /** Where the card waits for its turn to attach; default the page's (`pageAttachQueue`). */
  attachQueue?: AttachQueue;
  /** The cards store; default the page's. */
  store?: CardStoreAccess;
  /** Creates the AppBridge; default the SDK's. */
  construct?: AppBridgeConstructor;
  /** Creates the bridge's transport; default {@link sandboxTransport}. */
  createTransport?: (iframe: HTMLIFrameElement, sandboxOrigin: string) => Transport;
  /** Opens tabs and saves files; default the browser's. */
  page?: PageActions;
  /** The person's answers about views' permissions; default the page's (browser storage). */
  permissions?: PermissionGrantsAccess;
  timers?: TimerFunctions;
  now?: () => number;
}

/**
 * The bridge's transport to a card's proxy iframe: its window only, on the sandbox origin only.
 *
 * @returns a {@link SandboxTransport}.
 * @throws {Error} when the iframe is not in the page (it has no window).
 */
export function sandboxTransport(iframe: HTMLIFrameElement, sandboxOrigin: string): Transport {
  const target = iframe.contentWindow;
  if (target === null) throw new Error("The card's frame is not in the page.");
  return new SandboxTransport(target, sandboxOrigin);
}
