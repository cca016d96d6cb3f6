// What a card answers when its view asks the host for something. Requests that concern the MCP
// server or the conversation go to the server over the socket (the server checks that the card
// is known, that the tool belongs to the card's own source and is visible to apps, and runs the
// gate); links and downloads are handled here, in the page, with the person's consent.
import { CARD_CALL_ACK_TIMEOUT_MS, errorMessage } from "@mcp-chat-host/protocol";
import type {
  CallToolResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import type { CardPageHandlers } from "./card-bridge";
import { toPageError } from "./card-request-error";
import type { HostSocket } from "../socket/host-socket";
import { requestValue } from "../socket/request";
import type { CardLogEntry, PendingDownload } from "../state/types/card-view-state";
import type { DownloadItem } from "../state/types/card-view-state";
import { createDownloadBlob, planDownload } from "./download-files";
import { decideOpenLink, openLinkWithConsent } from "./open-link";
import { countInFlight, reportTextOf, type InFlightCounter } from "./page-request-tracking";

/** What the page offers a card beyond the socket: opening tabs and saving files. */
export interface PageActions {
  /** Opens an http(s) URL in a new tab without an opener. */
  openTab: (url: string) => void;
  /** Saves a file the person agreed to download. */
  saveFile: (name: string, blob: Blob) => void;
  /**
   * Asks the person one yes/no question (a link to a local address); without it such links are
   * refused.
   */
  confirmLink?: (question: string) => boolean | Promise<boolean>;
}

/** The page's own actions: `window.open` with `noopener,noreferrer`, and a download link. */
export const browserPageActions: PageActions = {
  openTab: (url) => {
    window.open(url, "_blank", "noopener,noreferrer");
  },
  // The browser's own dialog: drawn above every card, and a view cannot script it.
  confirmLink: (question) => window.confirm(question),
  saveFile: (name, blob) => {
    const address = URL.createObjectURL(blob);
    const anchor = document.createElement("a");
    anchor.href = address;
    anchor.download = name;
    anchor.rel = "noopener";
    anchor.style.display = "none";
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
    // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
    setTimeout(() => URL.revokeObjectURL(address), 60_000);
  },
};

/** What {@link createPageRequests} needs from its card. */
export interface PageRequestContext {
  instanceId: string;
  /**
   * The generation of this page load, from the card's `card:attach` reply: sent with its
   * messages and reports, so the server uses only the newest load's. Absent when the server
   * named none.
   */
  generation?: number | undefined;
  socket: HostSocket;
  page: PageActions;
  /** Adds a line to the card's log (and, for the view's own lines, to the server's). */
  log: (entry: Omit<CardLogEntry, "at">) => void;
  /** Asks the person about a download; resolves with their answer (false when the card closes). */
  askDownload: (question: Omit<PendingDownload, "answer">) => Promise<boolean>;
  /**
   * The server took the view's model context report: when (ms since the epoch) and its text
   * (`reportTextOf`; null when it has none).
   */
  reported: (report: { reportedAt: number; text: string | null }) => void;
  /** When given, counts the view's requests not answered yet (a card with one is in use). */
  inFlight?: InFlightCounter | undefined;
}

/** The request handlers of {@link CardPageHandlers} that a card answers without its bridge state. */
export type PageRequestHandlers = Pick<
  CardPageHandlers,
  | "callTool"
  | "readResource"
  | "listResources"
  | "listResourceTemplates"
  | "message"
  | "updateModelContext"
  | "openLink"
  | "downloadFile"
>;

function saveItems(context: PageRequestContext, items: readonly DownloadItem[]): boolean {
  let saved = 0;
  for (const item of items) {
    if (item.kind === "link") {
      if (!item.openable) {
        context.log({
          origin: "host",
          level: "warning",
          data: `Did not open the download link "${item.name}": only http and https links are opened.`,
        });
        continue;
      }
      context.page.openTab(item.url);
      saved += 1;
      continue;
    }
    try {
      context.page.saveFile(item.name, createDownloadBlob(item));
      saved += 1;
    } catch (error) {
      context.log({
        origin: "host",
        level: "error",
        data: `Could not save "${item.name}": ${errorMessage(error)}`,
      });
    }
  }
  return saved === items.length;
}

/**
 * Builds the handlers for a card's view requests.
 *
 * - `tools/call`, `resources/*`: to the server; a refusal becomes the JSON-RPC error the server
 *   named (`rpcCode`, else -32603) with its message. Tool calls wait up to
 *   `CARD_CALL_ACK_TIMEOUT_MS`, since the server may ask the person first.
 * - `ui/message`: to the server (`{}`; `{ isError: true }` when the server refused it).
 * - `ui/update-model-context`: to the server; its time is shown in the title bar.
 *   Both carry the page load's generation, when the attach reply named one.
 * - `ui/open-link`: http(s) only, new tab, no opener; a local address (loopback, private,
 *   link-local, local names) only after the person said yes; anything else `{ isError: true }`
 *   and a log line.
 * - `ui/download-file`: planned (names, sizes, cap), confirmed by the person, then saved.
 *
 * @returns the handlers, to pass to `createCardBridge`; counted in `context.inFlight` if given.
 */
export function createPageRequests(context: PageRequestContext): PageRequestHandlers {
  const handlers = pageRequestHandlers(context);
  return context.inFlight === undefined ? handlers : countInFlight(handlers, context.inFlight);
}

function pageRequestHandlers(context: PageRequestContext): PageRequestHandlers {
  const { instanceId, socket } = context;
  // Which load of the card's page speaks: the server routes only the newest load's messages and
  // reports, so an earlier load still running cannot speak for the card.
  const page = context.generation === undefined ? {} : { generation: context.generation };
  return {
    async callTool(params) {
      try {
        const payload =
          params.arguments === undefined
            ? { instanceId, name: params.name }
            : { instanceId, name: params.name, arguments: params.arguments };
        const result = await requestValue(
          socket,
          "card:call-tool",
          payload,
          CARD_CALL_ACK_TIMEOUT_MS,
        );
        return result as CallToolResult;
      } catch (error) {
        throw toPageError(error);
      }
    },
    async readResource(params) {
      try {
        const result = await requestValue(socket, "card:read-resource", {
          instanceId,
          uri: params.uri,
        });
        return result as ReadResourceResult;
      } catch (error) {
        throw toPageError(error);
      }
    },
    async listResources(params) {
      try {
        const cursor = params?.cursor;
        const payload = cursor === undefined ? { instanceId } : { instanceId, cursor };
        return (await requestValue(socket, "card:list-resources", payload)) as ListResourcesResult;
      } catch (error) {
        throw toPageError(error);
      }
    },
    async listResourceTemplates(params) {
      try {
        const cursor = params?.cursor;
        const payload = cursor === undefined ? { instanceId } : { instanceId, cursor };
        const result = await requestValue(socket, "card:list-resource-templates", payload);
        return result as ListResourceTemplatesResult;
      } catch (error) {
        throw toPageError(error);
      }
    },
    async message(params) {
      try {
        const content = params.content as unknown as Array<{ type: string }>;
        const reply = await requestValue(socket, "card:post-message", {
          instanceId,
          ...page,
          role: "user",
          content,
        });
        if (reply.action === "drop") {
          context.log({
            origin: "host",
            level: "info",
            data: `The message was not sent: ${reply.reason ?? "the chat does not take messages from this app."}`,
          });
        }
        return {};
      } catch (error) {
        context.log({
          origin: "host",
          level: "warning",
          data: `The app's message was refused: ${errorMessage(error)}`,
        });
        return { isError: true };
      }
    },
    async updateModelContext(params) {
      try {
        const payload: {
          instanceId: string;
          generation?: number;
          content?: Array<{ type: string }>;
          structuredContent?: Record<string, unknown>;
        } = { instanceId, ...page };
        if (params.content !== undefined) {
          payload.content = params.content as unknown as Array<{ type: string }>;
        }
        if (params.structuredContent !== undefined) {
          payload.structuredContent = params.structuredContent;
        }
        const reply = await requestValue(socket, "card:update-context", payload);
        context.reported({ reportedAt: reply.reportedAt, text: reportTextOf(params) });
        return {};
      } catch (error) {
        throw toPageError(error);
      }
    },
    async openLink(params) {
      const { opened, log } = await openLinkWithConsent(
        decideOpenLink(params.url),
        (question) => context.page.confirmLink?.(question) ?? false,
        (url) => context.page.openTab(url),
      );
      context.log({ origin: "host", level: opened ? "info" : "warning", data: log });
      return opened ? {} : { isError: true };
    },
    async downloadFile(params) {
      const plan = planDownload(params.contents);
      if (!plan.ok) {
        context.log({ origin: "host", level: "warning", data: plan.reason });
        return { isError: true };
      }
      const accepted = await context.askDownload({
        items: plan.items,
        totalBytes: plan.totalBytes,
      });
      if (!accepted) {
        context.log({ origin: "host", level: "info", data: "The download was declined." });
        return { isError: true };
      }
      return saveItems(context, plan.items) ? {} : { isError: true };
    },
  };
}
