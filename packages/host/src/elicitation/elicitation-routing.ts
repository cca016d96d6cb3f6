// Which person a server's question goes to. The wire does not say which call a question belongs
// to (a stdio server's `elicitation/create` names no request), so each call a session makes
// carries a caller tag (`McpRequestOptions.caller`), and a question goes to the one session whose
// calls were in flight on that connection when it came. A connection shared by the process
// (a stdio server) may carry calls of several sessions at once: then nobody can be told apart,
// and the question is declined with a warning in the log.
import type { McpElicitationContext, McpElicitationHandler } from "@mcp-chat-host/connection";
import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/client";
import type { Logger } from "pino";
import type { ElicitationBroker } from "./elicitation-broker";
import { unattributedQuestion } from "./elicitation-sentences";

/** The tag a session's call carries, so that a question during it reaches that session. */
export class ElicitationCaller {
  /**
   * @param broker - the session's questions.
   * @param chatId - the chat whose call it is, when there is one.
   */
  constructor(
    readonly broker: ElicitationBroker,
    readonly chatId?: string,
  ) {}
}

/**
 * The `onElicitation` of the host's MCP connections: puts each question to the session whose
 * call led to it, and withdraws it when every such call ended.
 *
 * @param logger - where a declined question is logged, with its reason.
 * @returns the handler to pass to `McpClientSession.open`.
 */
export function routeElicitation(logger: Logger): McpElicitationHandler {
  return (request: ElicitRequestParams, context: McpElicitationContext): Promise<ElicitResult> => {
    const calls = context.callers.flatMap((call) =>
      call.caller instanceof ElicitationCaller
        ? [{ caller: call.caller, settled: call.settled }]
        : [],
    );
    const brokers = new Set(calls.map((call) => call.caller.broker));
    const [broker] = brokers;
    if (broker === undefined || brokers.size > 1) {
      logger.warn({ source: context.server }, unattributedQuestion(brokers.size));
      return Promise.resolve({ action: "decline" });
    }
    const chatIds = new Set(calls.map((call) => call.caller.chatId));
    const [chatId] = chatIds;
    const withdrawn = AbortSignal.any([
      context.signal,
      allAborted(calls.map((call) => call.settled)),
    ]);
    return broker.ask(
      { server: context.server, params: request, chatId: chatIds.size === 1 ? chatId : undefined },
      withdrawn,
    );
  };
}

/** A signal aborted once every one of `signals` is. */
function allAborted(signals: readonly AbortSignal[]): AbortSignal {
  const all = new AbortController();
  let left = signals.length;
  const onAbort = (): void => {
    left -= 1;
    if (left === 0) all.abort();
  };
  for (const signal of signals) {
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  return all.signal;
}
