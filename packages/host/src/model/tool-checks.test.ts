import { describe, expect, test } from "vitest";
import type { HostTool } from "./host-tool";
import {
  HOOK_FAILED_REASON,
  HOOK_REFUSED_REASON,
  ToolCallBudget,
  budgetSpentReason,
  checkToolRequest,
} from "./tool-checks";
import type { ToolRequest, ToolRequestHook } from "./tool-checks";

const readOnly = { readOnlyHint: true, openWorldHint: false };

function hostTool(annotations: HostTool["annotations"]): HostTool {
  return {
    name: "thing",
    description: "",
    inputSchema: { type: "object" },
    ...(annotations === undefined ? {} : { annotations }),
    source: "test",
    execute: () => Promise.resolve({ value: "", isError: false }),
  };
}

const request: ToolRequest = {
  toolCallId: "call-1",
  name: "thing",
  arguments: { a: 1 },
  annotations: readOnly,
  source: "test",
};

function check(
  annotations: HostTool["annotations"],
  options: { web?: boolean; write?: boolean; hook?: ToolRequestHook; budget?: ToolCallBudget } = {},
) {
  return checkToolRequest({
    tool: hostTool(annotations),
    request,
    permissions: { web: options.web ?? false, write: options.write ?? false },
    onToolRequest: options.hook,
    budget: options.budget ?? new ToolCallBudget(10),
  });
}

describe("checkToolRequest", () => {
  test("a destructive tool is refused while write is off, allowed with write on", async () => {
    const destructive = { destructiveHint: true, openWorldHint: false };
    expect(await check(destructive)).toEqual({
      allowed: false,
      check: "permission",
      reason: "Tool is marked as destructive and write operations are disabled",
    });
    expect(await check(destructive, { write: true })).toEqual({ allowed: true });
  });

  test("an unannotated tool counts as open world and needs web (and write)", async () => {
    expect(await check(undefined, { write: true })).toEqual({
      allowed: false,
      check: "permission",
      reason: "Tool can access external resources but web access is disabled",
    });
    expect(await check(undefined, { web: true, write: true })).toEqual({ allowed: true });
  });

  test("the hook is asked only after the permission check passed, with the request", async () => {
    const seen: ToolRequest[] = [];
    const hook: ToolRequestHook = (received) => {
      seen.push(received);
      return true;
    };
    await check({ destructiveHint: true }, { hook });
    expect(seen).toEqual([]);
    expect(await check(readOnly, { hook })).toEqual({ allowed: true });
    expect(seen).toEqual([request]);
  });

  test("hook verdicts: undefined allows, false and '' refuse with the default, a string is the reason", async () => {
    expect(await check(readOnly, { hook: () => undefined })).toEqual({ allowed: true });
    expect(await check(readOnly, { hook: () => Promise.resolve(true) })).toEqual({ allowed: true });
    for (const verdict of [false, ""]) {
      expect(await check(readOnly, { hook: () => verdict })).toEqual({
        allowed: false,
        check: "hook",
        reason: HOOK_REFUSED_REASON,
      });
    }
    expect(await check(readOnly, { hook: () => Promise.resolve("Ask me first.") })).toEqual({
      allowed: false,
      check: "hook",
      reason: "Ask me first.",
    });
  });

  test("a hook that throws, rejects or answers oddly refuses, and the cause is kept", async () => {
    const thrown = new Error("policy bug");
    const throwing = await check(readOnly, {
      hook: () => {
        throw thrown;
      },
    });
    expect(throwing).toEqual({
      allowed: false,
      check: "hook",
      reason: HOOK_FAILED_REASON,
      cause: thrown,
    });
    const rejecting = await check(readOnly, { hook: () => Promise.reject(thrown) });
    expect(rejecting).toMatchObject({ allowed: false, reason: HOOK_FAILED_REASON, cause: thrown });
    const odd = await check(readOnly, { hook: (() => 42) as unknown as ToolRequestHook });
    expect(odd).toMatchObject({ allowed: false, check: "hook", reason: HOOK_FAILED_REASON });
    expect(String((odd as { cause: unknown }).cause)).toContain("a value of type number");
  });

  test("the budget is spent only by calls that passed the other checks", async () => {
    const budget = new ToolCallBudget(1);
    await check({ destructiveHint: true }, { budget });
    await check(readOnly, { budget, hook: () => false });
    expect(budget.count).toBe(0);
    expect(await check(readOnly, { budget })).toEqual({ allowed: true });
    expect(await check(readOnly, { budget })).toEqual({
      allowed: false,
      check: "budget",
      reason: "This reply has used its budget of 1 tool call; answer with what you have.",
    });
    expect(budget.count).toBe(1);
  });
});

test("budgetSpentReason names the limit", () => {
  expect(budgetSpentReason(3)).toBe(
    "This reply has used its budget of 3 tool calls; answer with what you have.",
  );
});
