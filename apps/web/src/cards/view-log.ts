// A view's own log lines (`notifications/message`) go to the server's log too (`card:log`), cut
// to what the server accepts.
import { limits, errorMessage } from "@mcp-chat-host/protocol";
import type { CardLogEntry } from "../state/types/card-view-state";
import type { HostSocket } from "../socket/host-socket";
import { requestValue } from "../socket/request";

/**
 * The `data` of a view's log line as the server accepts it: as given when its JSON fits the card
 * payload cap, else a cut string of it.
 *
 * @returns the value to send in `card:log`.
 */
function cappedLogData(data: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(data ?? null);
  } catch {
    return String(data);
  }
  if (json === undefined) return String(data);
  if (json.length <= limits.maxCardPayloadChars) return data;
  // Half the cap: the cut text is sent as a string, whose own JSON escapes can double its length.
  return `${json.slice(0, Math.floor(limits.maxCardPayloadChars / 2) - 100)}… (cut)`;
}

/** A view's log line (`notifications/message` params). */
export interface ViewLogParams {
  level: CardLogEntry["level"];
  logger?: string | undefined;
  data?: unknown;
}

/**
 * Sends a view's log line to the server (`card:log`), without waiting; a failure is reported on
 * the console, since the line is already in the card's own log.
 *
 * @param socket - the page's socket.
 * @param instanceId - the card's instance id.
 * @param params - the view's log line.
 */
export function sendViewLog(socket: HostSocket, instanceId: string, params: ViewLogParams): void {
  const payload: {
    instanceId: string;
    level: CardLogEntry["level"];
    logger?: string;
    data: unknown;
  } = { instanceId, level: params.level, data: cappedLogData(params.data) };
  if (params.logger !== undefined) payload.logger = params.logger.slice(0, 200);
  requestValue(socket, "card:log", payload).catch((error: unknown) => {
    console.warn(`Card ${instanceId}: a log line did not reach the server: ${errorMessage(error)}`);
  });
}
