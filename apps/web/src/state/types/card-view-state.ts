// What the page shows of each live card: kept in the page's store (its `cardViews`), outside
// React, so the card's controller (which talks to the bridge and the socket) can update it and the
// card's component can render it.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";

/** A card's display mode, as MCP Apps names them (`cards/display-mode.ts` decides changes). */
type DisplayMode = McpUiDisplayMode;

/** Height of a card's iframe before its view reports one, in pixels. */
export const initialFrameHeight = 240;

/** One file the host is about to save or open. */
export type DownloadItem =
  | {
      readonly kind: "embedded";
      readonly name: string;
      readonly mimeType: string;
      readonly bytes: number;
      readonly content: { readonly text: string } | { readonly base64: string };
    }
  | {
      readonly kind: "link";
      readonly name: string;
      readonly url: string;
      /** The size the view declared, or null when it did not say. */
      readonly bytes: number | null;
      /** False for anything but http(s): such links are listed but never opened. */
      readonly openable: boolean;
    };

/** A question on screen: what it asks, and how the person answers it. */
export type Pending<Q> = Q & {
  /** Answers the question; the first answer counts. */
  answer: (accepted: boolean) => void;
};

/**
 * Where a card is in its life: `waiting` for its turn to attach (a few cards attach at a time),
 * `attaching`, `loading` its view, `ready` once the view initialised, `error`, `closing`, `closed`.
 */
export type CardStatus =
  "waiting" | "attaching" | "loading" | "ready" | "error" | "closing" | "closed";

/** One line of a card's log: the view's own logging, or the host's notes about the view. */
export interface CardLogEntry {
  /** When it was logged (ms since the epoch). */
  at: number;
  /** `view` for the page's `notifications/message`, `host` for what the host did or refused. */
  origin: "view" | "host";
  level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
  logger?: string;
  data: unknown;
}

/** A download waiting for the person's answer. */
export interface PendingDownload {
  items: readonly DownloadItem[];
  totalBytes: number;
  /** Answers the question; the first answer counts. */
  answer: (accepted: boolean) => void;
}

/** A view's request for full screen, waiting for the person's answer. */
export type PendingDisplayRequest = Pending<{ mode: "fullscreen" }>;

/** Permissions a view declared that the person has not answered for its source yet. */
export type PendingPermissionRequest = Pending<{ permissions: readonly PagePermissionName[] }>;

/** A card's powerful permissions: what its view declared and what the person granted. */
export interface CardPermissions {
  declared: readonly PagePermissionName[];
  granted: readonly PagePermissionName[];
}

/**
 * What the live view adds to a card: where it is in its life, how it is shown, what it asks the
 * person and what it logged. What the server says about the card (descriptor, arguments, result,
 * cancellation) is its `CardEntry` in the `cards` slice, and only there.
 */
export interface CardViewState {
  status: CardStatus;
  /** Why the view is not shown (attach refused, closed by the server), for the fallback text. */
  error: string | null;
  /** When the view last reported its model context (ms since the epoch). */
  reportedAt: number | null;
  displayMode: DisplayMode;
  /** The view's declared display modes, once it initialised (null: declared none). */
  declaredModes: readonly DisplayMode[] | null;
  /**
   * Whether the current load of the view was sent its input and the opening call's outcome: from
   * then on it shows what the call returned, and what the person does in it is answered.
   */
  delivered: boolean;
  /** The iframe's height inline, in pixels. */
  frameHeight: number;
  /** Whether the view asked for a border (`prefersBorder`); null: the host decides. */
  prefersBorder: boolean | null;
  log: readonly CardLogEntry[];
  download: PendingDownload | null;
  /** The view asked for full screen; the person has not answered yet. */
  displayRequest: PendingDisplayRequest | null;
  /** The view declared permissions the person has not answered yet. */
  permissionRequest: PendingPermissionRequest | null;
  /** The view's declared permissions and the granted ones, once attached. */
  permissions: CardPermissions;
}

/** Most log lines a card keeps; older ones are dropped first. */
export const maximumLogEntries = 500;

/** The shown state of a card before it attached. */
export function initialCardViewState(): CardViewState {
  return {
    status: "attaching",
    error: null,
    reportedAt: null,
    displayMode: "inline",
    declaredModes: null,
    delivered: false,
    frameHeight: initialFrameHeight,
    prefersBorder: null,
    log: [],
    download: null,
    displayRequest: null,
    permissionRequest: null,
    permissions: { declared: [], granted: [] },
  };
}

/** How a card's controller reads and writes its shown state (injectable for tests). */
export interface CardViewAccess {
  /** Creates a card's state (or replaces it). */
  put: (instanceId: string, state: CardViewState) => void;
  /** Changes some fields of a card's state; ignored for an unknown card. */
  patch: (instanceId: string, patch: Partial<CardViewState>) => void;
  /** Adds a log line, keeping at most {@link maximumLogEntries}. */
  appendLog: (instanceId: string, entry: CardLogEntry) => void;
  /** Forgets a card. */
  remove: (instanceId: string) => void;
  /** A card's state, if known. */
  get: (instanceId: string) => CardViewState | undefined;
}
