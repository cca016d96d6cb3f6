import type { CardDescriptor } from "@mcp-chat-host/protocol";
import type { Transport } from "@modelcontextprotocol/client";
import type { PermissionGrantsAccess } from "../consent/permission-grants-access";
import type { AttachQueue } from "./attach-queue";
import type { AppBridgeConstructor } from "./card-bridge";
import type { PageActions } from "./card-page-requests";
import type { HostSocket } from "../socket/host-socket";
import type { CardLogEntry, CardViewAccess } from "../state/types/card-view-state";
import type { CardEntryAccess } from "../state/types/cards";
import { SandboxTransport } from "./sandbox-transport";
import type { Theme } from "../state/theme-store";
import type { TimerFunctions } from "./teardown-with-timeout";

/** What a card tells the page around it. */
export interface CardCallbacks {
  /** The card was closed (close button, or its view asked) and torn down: remove it. */
  onClose: (instanceId: string) => void;
  /** A line was added to the card's log. */
  onLog?: ((instanceId: string, entry: CardLogEntry) => void) | undefined;
  /** The view reported its model context (`ui/update-model-context`); `text` is its text. */
  onReport?: ((instanceId: string, text: string) => void) | undefined;
}

/** A card that was paused to free a live view slot and is attached again. */
export interface CardResume {
  /** When it was paused (ms since the epoch); its log says so. */
  pausedAt: number;
  /** Its frame's height when it was paused, kept until its view reports a size. */
  frameHeight: number | null;
}

/** Everything a card's controller works with. */
export interface CardControllerOptions {
  card: CardDescriptor;
  socket: HostSocket;
  /** The outer iframe (the sandbox proxy); the same element for the card's whole life. */
  iframe: HTMLIFrameElement;
  /** The stable container of the iframe, measured for `containerDimensions`. */
  holder: HTMLElement;
  theme: Theme;
  /** Returns the page's current callbacks (read at each use, so they may change). */
  callbacks: () => CardCallbacks;
  /** Set when the card was paused and attaches again (see {@link CardResume}). */
  resume?: CardResume | undefined;
  /** Where the card waits for its turn to attach; default the page's (`pageAttachQueue`). */
  attachQueue?: AttachQueue;
  /** The card's shown state; default the page's store (`cardViews`). */
  store?: CardViewAccess;
  /** What the server says about the card; default the page's store (`cards`). */
  cards?: CardEntryAccess;
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
