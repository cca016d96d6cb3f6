import { errorMessage } from "@mcp-chat-host/protocol";
import { capToolResult } from "../sources/capped-result";
import type { LiveCard } from "../session/card-registry";
import { sourceFailureMessage } from "../page-calls/source-failure";
import { isSourceError } from "../sources/source-error";
import type { Chat } from "../session/chat";
import type { HostTool, ToolRunContext } from "../model/host-tool";
import { toolOutcomeFromResult, type ModelToolOutcome } from "../model/tool-outcome";
import type { SourceTool } from "../sources/source";
import { measuredToolCall } from "../telemetry/measured-tool-call";
import { toolDisplayTitle } from "../sources/tool-metadata";
import { STOPPED_REASON, type Turn, type TurnDeps } from "./turn";
import { ElicitationCaller } from "../elicitation/elicitation-routing";

/**
 * The chat's tools as the model runner takes them, each running its call on its source during
 * this turn (listed first if the chat's tools were never listed).
 */
export async function turnTools(deps: TurnDeps, chat: Chat, turn: Turn): Promise<HostTool[]> {
  const listed = deps.tools.get(chat.key) ?? (await deps.tools.list(chat));
  return listed.map(({ tool, source, modelName, description }) => {
    const hostTool: HostTool = {
      name: modelName,
      title: toolDisplayTitle(tool),
      description,
      inputSchema: tool.inputSchema as HostTool["inputSchema"],
      source,
      execute: (args, runContext) =>
        executeToolCall(deps, turn, { source, tool, args }, runContext),
    };
    if (tool.annotations !== undefined) hostTool.annotations = tool.annotations;
    return hostTool;
  });
}

/**
 * Runs one model tool call on its source. A tool with a view has a card, opened by the turn
 * before the call runs: it is saved with the final arguments, then with the result or the
 * reason there is none (the tabs hear of both in the reply's chunks). Closing the card cuts its
 * call short.
 */
async function executeToolCall(
  deps: TurnDeps,
  turn: Turn,
  call: { source: string; tool: SourceTool; args: Record<string, unknown> },
  runContext: ToolRunContext,
): Promise<ModelToolOutcome> {
  const { context, cards } = deps;
  const { tool, args } = call;
  const source = await context.sources.get(call.source);
  // The turn opened the card as the call's part was born (or got its input); it is stored
  // before the call runs.
  const card: LiveCard | null = await turn.cardOf(runContext.toolCallId);
  if (card) await cards.finishInput(card, args);
  const signal = card
    ? AbortSignal.any([runContext.signal, cards.beginOpeningCall(card)])
    : runContext.signal;
  try {
    const result = capToolResult(
      await measuredToolCall(
        context.services.metrics,
        { source: call.source, tool: tool.name, caller: "model" },
        () =>
          source.callTool(tool.name, args, {
            signal,
            timeout: context.services.toolTimeout,
            onProgress: (progress) => runContext.onProgress(progress),
            caller: new ElicitationCaller(context.elicitations, turn.chatKey),
          }),
      ),
      context.services.toolResultLimit,
    );
    if (card) await cards.complete(card, result);
    return toolOutcomeFromResult(result);
  } catch (error) {
    if (runContext.signal.aborted) {
      if (card) await cards.cancel(card, STOPPED_REASON);
      throw error;
    }
    // The card and the model get the same sentence for the person (a timeout says so plainly);
    // an error no source made is a bug, told in general words, its detail logged here.
    const reason = sourceFailureMessage(error, call.source, source.closed);
    if (!isSourceError(error)) {
      context.services.logger.error(
        { err: error, source: call.source, tool: tool.name },
        "a model's tool call failed unexpectedly",
      );
    }
    if (card) await cards.cancel(card, reason);
    throw reason === errorMessage(error) ? error : new Error(reason, { cause: error });
  }
}
