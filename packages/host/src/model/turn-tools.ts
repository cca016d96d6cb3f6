// The chat's tools as the AI SDK runs them in a turn: each call passes the checks of
// tool-checks.ts first, its progress and end become turn events, and a stop cancels it.
import type { JSONSchema7, SharedV3ProviderOptions } from "@ai-sdk/provider";
import { jsonSchema, tool } from "ai";
import type { ToolSet } from "ai";
import type { ToolPermissions } from "@mcp-chat-host/connection";
import { errorMessage } from "@mcp-chat-host/protocol";
import type { HostTool, ToolProgress } from "./host-tool";
import { inSpan, type SpanHandle } from "../telemetry/spans";
import { withBreakpoint } from "./prompt-caching";
import { checkToolRequest, ToolCallBudget } from "./tool-checks";
import type { ToolRequest, ToolRequestHook } from "./tool-checks";
import { modelOutputFor, refusalOutcome } from "./tool-outcome";
import type { ModelToolOutcome } from "./tool-outcome";
import type { TurnState } from "./turn-state";

/** The text of a tool call's result when its arguments are not a JSON object. */
const ARGUMENTS_NOT_OBJECT_REASON = "The arguments must be a JSON object.";

/** What the tools of a turn need from the turn's options. */
export interface TurnToolOptions {
  tools: readonly HostTool[];
  maxToolCalls: number;
  permissions: ToolPermissions;
  onToolRequest?: ToolRequestHook | undefined;
}

/**
 * Builds the AI SDK tool set of a turn, in the order the model is shown the tools.
 *
 * @param cacheBreakpoint - whether the last tool carries Anthropic's cache breakpoint.
 * @returns the tool set.
 */
export function buildToolSet(
  options: TurnToolOptions,
  turn: TurnState,
  turnSignal: AbortSignal,
  cacheBreakpoint: boolean,
): ToolSet {
  const budget = new ToolCallBudget(options.maxToolCalls);
  const toolSet: ToolSet = {};
  options.tools.forEach((hostTool, index) => {
    // The offline model reads titles from here (the model interface has no title field).
    let providerOptions: SharedV3ProviderOptions | undefined =
      hostTool.title === undefined ? undefined : { offline: { title: hostTool.title } };
    if (cacheBreakpoint && index === options.tools.length - 1) {
      providerOptions = withBreakpoint(providerOptions);
    }
    toolSet[hostTool.name] = tool<unknown, ModelToolOutcome>({
      description: hostTool.description,
      ...(hostTool.title === undefined ? {} : { title: hostTool.title }),
      ...(providerOptions === undefined ? {} : { providerOptions }),
      // No validation: arguments reach the server as the model sent them.
      inputSchema: jsonSchema<unknown>(hostTool.inputSchema as JSONSchema7),
      execute: (input, { toolCallId, abortSignal }) =>
        runToolCall({
          hostTool,
          input,
          toolCallId,
          signal: abortSignal ?? turnSignal,
          options,
          budget,
          turn,
        }),
      toModelOutput: ({ output }) => modelOutputFor(output),
    });
  });
  return toolSet;
}

/** One tool call of the model, as the AI SDK runs it. */
interface ModelToolCall {
  hostTool: HostTool;
  input: unknown;
  toolCallId: string;
  signal: AbortSignal;
  options: TurnToolOptions;
  budget: ToolCallBudget;
  turn: TurnState;
}

/** Runs a call in its span (`execute_tool <name>`, caller `model`): its checks, then the tool. */
function runToolCall(call: ModelToolCall): Promise<ModelToolOutcome> {
  const { hostTool } = call;
  return inSpan(
    `execute_tool ${hostTool.name}`,
    {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": hostTool.name,
      "gen_ai.tool.call.id": call.toolCallId,
      "mcp_chat_host.tool.caller": "model",
      "mcp_chat_host.tool.source": hostTool.source,
    },
    (span) => checkAndRunToolCall(call, span),
  );
}

async function checkAndRunToolCall(
  call: ModelToolCall,
  span: SpanHandle,
): Promise<ModelToolOutcome> {
  const { hostTool, toolCallId, signal, turn } = call;
  const name = hostTool.name;
  const args = argumentsFromInput(call.input);
  if (args === undefined) {
    turn.emit({
      type: "tool-output-denied",
      toolCallId,
      name,
      check: "arguments",
      reason: ARGUMENTS_NOT_OBJECT_REASON,
    });
    span.set({ "mcp_chat_host.outcome": "refused", "mcp_chat_host.tool.check": "arguments" });
    return refusalOutcome(ARGUMENTS_NOT_OBJECT_REASON);
  }
  const request: ToolRequest = {
    toolCallId,
    name,
    arguments: args,
    annotations: hostTool.annotations,
    source: hostTool.source,
  };
  const check = await checkToolRequest({
    tool: hostTool,
    request,
    permissions: call.options.permissions,
    onToolRequest: call.options.onToolRequest,
    budget: call.budget,
  });
  if (!check.allowed) {
    const { check: checkName, reason, cause } = check;
    turn.emit({
      type: "tool-output-denied",
      toolCallId,
      name,
      check: checkName,
      reason,
      ...(cause === undefined ? {} : { cause }),
    });
    span.set({ "mcp_chat_host.outcome": "refused", "mcp_chat_host.tool.check": checkName });
    return refusalOutcome(reason);
  }
  turn.emit({ type: "tool-call", toolCallId, name, arguments: args });
  turn.running.set(toolCallId, name);
  let outcome: ModelToolOutcome;
  try {
    outcome = await hostTool.execute(args, {
      signal,
      toolCallId,
      onProgress: (progress) =>
        turn.emit({ type: "tool-progress", toolCallId, ...withoutUndefined(progress) }),
    });
  } catch (error) {
    // A stopped turn discards the call's result; let the stream see the abort.
    if (signal.aborted) {
      span.set({ "mcp_chat_host.outcome": "cancelled" });
      throw error;
    }
    outcome = { value: `The tool call failed: ${errorMessage(error)}`, isError: true };
  }
  turn.running.delete(toolCallId);
  const { value, isError, raw } = outcome;
  span.set({ "mcp_chat_host.outcome": isError ? "error" : "ok" });
  if (isError) span.fail("tool_error");
  turn.emit({
    type: "tool-result",
    toolCallId,
    name,
    isError,
    value,
    ...(raw === undefined ? {} : { raw }),
  });
  return outcome;
}

/** Arguments go through as the model sent them, but omitted or null ones are dropped. */
function argumentsFromInput(input: unknown): Record<string, unknown> | undefined {
  if (input === undefined || input === null) return {};
  if (typeof input !== "object" || Array.isArray(input)) return undefined;
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== null && value !== undefined),
  );
}

/** Drops the optional fields that are present but undefined (exactOptionalPropertyTypes). */
function withoutUndefined(progress: ToolProgress): {
  progress: number;
  total?: number;
  message?: string;
} {
  return {
    progress: progress.progress,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    ...(progress.message === undefined ? {} : { message: progress.message }),
  };
}
