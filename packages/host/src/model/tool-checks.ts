// The checks a model's tool call passes before it runs, in this order: the annotation
// permissions, the chat's onToolRequest hook, then the per-turn budget. The budget comes last so
// that a refused call does not spend it.
import { checkToolPermission } from "@mcp-chat-host/connection";
import type { ToolPermissions } from "@mcp-chat-host/connection";
import type { ToolAnnotations } from "@modelcontextprotocol/client";
import type { HostTool } from "./host-tool";

/** What the chat's `onToolRequest` hook is shown about a call the model wants to make. */
export interface ToolRequest {
  toolCallId: string;
  name: string;
  /** The arguments as the model sent them (top-level nulls dropped). */
  arguments: Record<string, unknown>;
  /** The tool's annotations as its server listed them, or undefined. */
  annotations: ToolAnnotations | undefined;
  /** The source that serves the tool. */
  source: string;
}

/** `true` or `undefined` allows the call; `false` refuses it; a string refuses with that reason. */
export type ToolRequestVerdict = boolean | string | undefined;

/** The chat's hook on the model's tool calls. It may answer later (a promise). */
export type ToolRequestHook = (
  request: ToolRequest,
) => ToolRequestVerdict | void | Promise<ToolRequestVerdict | void>;

/**
 * Which check refused a call. "arguments" and "unknown-tool" are the runner's own: arguments that
 * are not a JSON object (or not JSON at all), and a tool name the chat does not have.
 */
export type ToolCheckName = "arguments" | "unknown-tool" | "permission" | "hook" | "budget";

/** The answer of {@link checkToolRequest}. `reason` is what the model is told, after the prefix. */
export type ToolCheckResult =
  { allowed: true } | { allowed: false; check: ToolCheckName; reason: string; cause?: unknown };

/** The reason given to the model when the hook answers `false` (or an empty string). */
export const HOOK_REFUSED_REASON = "This chat does not allow this call.";

/** The reason given to the model when the hook throws, rejects or answers something unexpected. */
export const HOOK_FAILED_REASON = "The chat's check of this call failed, so the call was not made.";

/**
 * The reason given to the model when the turn's tool-call budget is spent.
 *
 * @returns a sentence naming the limit and telling the model what to do instead.
 */
export function budgetSpentReason(limit: number): string {
  const calls = limit === 1 ? "1 tool call" : `${limit} tool calls`;
  return `This reply has used its budget of ${calls}; answer with what you have.`;
}

/**
 * Counts the tool calls of one turn against a limit. Calls of one step run concurrently, so the
 * count is taken synchronously when a call asks for a slot.
 */
export class ToolCallBudget {
  private used = 0;

  /** @param limit - how many calls may run in the turn; 0 allows none. */
  constructor(readonly limit: number) {}

  /**
   * Takes one call from the budget.
   *
   * @returns true when the call may run; false when the budget is spent (nothing is taken).
   */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }

  /** How many calls the turn has made so far. */
  get count(): number {
    return this.used;
  }
}

/**
 * Runs the checks on one tool call, in order: annotation permissions, the chat's hook, the budget.
 * Never throws: a hook that throws, rejects or returns an unexpected value refuses the call, and
 * the error is returned as `cause` so the caller can log it.
 *
 * @returns `{ allowed: true }` when the call may run (one unit of budget is then spent), or the
 *   refusal with the check that made it and the reason for the model.
 */
export async function checkToolRequest(options: {
  tool: HostTool;
  request: ToolRequest;
  permissions: ToolPermissions;
  onToolRequest?: ToolRequestHook | undefined;
  budget: ToolCallBudget;
}): Promise<ToolCheckResult> {
  const { tool, request, permissions, onToolRequest, budget } = options;
  const permission = checkToolPermission({ annotations: tool.annotations }, permissions);
  if (!permission.allowed) {
    return { allowed: false, check: "permission", reason: permission.reason };
  }
  if (onToolRequest !== undefined) {
    const hook = await askHook(onToolRequest, request);
    if (!hook.allowed) return hook;
  }
  if (!budget.take()) {
    return { allowed: false, check: "budget", reason: budgetSpentReason(budget.limit) };
  }
  return { allowed: true };
}

async function askHook(hook: ToolRequestHook, request: ToolRequest): Promise<ToolCheckResult> {
  let verdict: unknown;
  try {
    verdict = await hook(request);
  } catch (error) {
    return { allowed: false, check: "hook", reason: HOOK_FAILED_REASON, cause: error };
  }
  if (verdict === true || verdict === undefined) return { allowed: true };
  if (verdict === false || verdict === "") {
    return { allowed: false, check: "hook", reason: HOOK_REFUSED_REASON };
  }
  if (typeof verdict === "string") return { allowed: false, check: "hook", reason: verdict };
  const cause = new TypeError(
    `onToolRequest returned ${describeValue(verdict)}; return true, false, a string or undefined.`,
  );
  return { allowed: false, check: "hook", reason: HOOK_FAILED_REASON, cause };
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a value of type ${typeof value}`;
}
