// What the page shows of each live card: kept in the page's store (its `cardViews`), outside
// React, so the card's controller (which talks to the bridge and the socket) can update it and the
// card's component can render it.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import type { DisplayMode } from "./display-mode";
import type { DownloadItem } from "./download-files";
import { initialFrameHeight } from "./frame-size";
import type { Pending } from "./person-question";

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

/** The shown state of one live card (the conversation's own record of it is a `CardEntry`). */
export interface CardViewState {
  status: CardStatus;
  /** Why the view is not shown (attach refused, closed by the server), for the fallback text. */
  error: string | null;
  title: string;
  source: string;
  tool: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown> | null;
  cancelled: string | null;
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

/** The initial state of a card, from what its descriptor says. */
export function initialCardViewState(descriptor: {
  title: string;
  source: string;
  tool: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown> | null;
  cancelled?: string | undefined;
}): CardViewState {
  return {
    status: "attaching",
    error: null,
    title: descriptor.title,
    source: descriptor.source,
    tool: descriptor.tool,
    arguments: descriptor.arguments,
    result: descriptor.result,
    cancelled: descriptor.cancelled ?? null,
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
