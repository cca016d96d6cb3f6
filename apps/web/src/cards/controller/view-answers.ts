// How a card answers each new load of its view: the view's requests go to the server or the page
// (`createPageRequests`, counted while unanswered), its display mode, size and container to the
// card's presentation, its log lines to the card's log and the server's.
import type { AttachReply } from "@mcp-chat-host/protocol";
import { browserPageActions, createPageRequests } from "../card-page-requests";
import type { CardLogEntry } from "../../state/types/card-view-state";
import type { DownloadQuestion } from "../download-question";
import type { InFlightCounter } from "../page-request-tracking";
import { sendViewLog, type ViewLogParams } from "../view-log";
import type { CardCore } from "./card-core";
import type { CardPresentation } from "./card-presentation";
import type { ViewAnswers } from "./view-load";

/** The parts of a card its view's answers use. */
export interface AnsweringCard {
  core: CardCore;
  presentation: CardPresentation;
  download: DownloadQuestion;
  /** The view's requests not answered yet. */
  inFlight: InFlightCounter;
  /** The view asked to be closed. */
  close: () => void;
}

/**
 * The answers for a load of the view attached with `reply`.
 *
 * @returns what `ViewLoad.open` wires into the load's bridge.
 */
export function viewAnswers(reply: AttachReply, card: AnsweringCard): ViewAnswers {
  const { core, presentation } = card;
  const { instanceId } = core;
  return {
    hostContext: presentation.hostContextFor(reply.tool),
    requests: createPageRequests({
      instanceId,
      generation: reply.generation,
      socket: core.options.socket,
      page: core.options.page ?? browserPageActions,
      log: (entry) => core.appendLog({ ...entry, at: core.now() }),
      askDownload: (question) =>
        core.disposed ? Promise.resolve(false) : card.download.ask(question),
      reported: ({ reportedAt, text }) => {
        core.patch({ reportedAt });
        if (text !== null) core.callbacks().onReport?.(instanceId, text);
      },
      inFlight: card.inFlight,
    }),
    requestDisplayMode: (requested) => presentation.requestFromView(requested),
    sizeChange: (height) => presentation.sizeChanged(height),
    loggingMessage: (params) => viewLogged(core, params),
    requestTeardown: () => {
      core.hostLog("info", "The app asked to be closed.");
      card.close();
    },
    resized: (size) => presentation.resized(size),
    initialized: (declared, sent) => {
      core.patch({ status: "ready", declaredModes: declared ?? null });
      void sent.then(() => presentation.viewInitialized(declared));
    },
  };
}

/** The view logged a line: it goes to the card's log and to the server's. */
function viewLogged(core: CardCore, params: ViewLogParams): void {
  const entry: CardLogEntry = {
    at: core.now(),
    origin: "view",
    level: params.level,
    data: params.data,
  };
  if (params.logger !== undefined) entry.logger = params.logger;
  core.appendLog(entry);
  sendViewLog(core.options.socket, core.instanceId, params);
}
