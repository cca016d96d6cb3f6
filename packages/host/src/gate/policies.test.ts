import type { ToolAnnotations } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { runAppCallChain, type AppCall } from "./app-call-gate";
import { isUnannotated, parseAppCallRules, policies, PolicyConfigError } from "./policies";

/** A call whose `ask` records the question and answers with `answer`. */
function appCall(
  options: {
    name?: string;
    source?: string;
    annotations?: ToolAnnotations;
    answer?: boolean | string;
  } = {},
) {
  const questions: (string | undefined)[] = [];
  const name = options.name ?? "delete-note";
  const call: AppCall = {
    name,
    arguments: {},
    tool: {
      name,
      inputSchema: { type: "object" },
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    instanceId: "host-1",
    kind: "card",
    source: options.source ?? "notes",
    chat: "chat-1",
    title: "Notes",
    session: { id: "session-1", user: { id: "user-1" } },
    ask: async (question) => {
      questions.push(question);
      return options.answer ?? true;
    },
  };
  return { call, questions };
}

describe("isUnannotated", () => {
  it("treats a title alone as no annotation", () => {
    expect(isUnannotated({ title: "Delete" })).toBe(true);
    expect(isUnannotated({ openWorldHint: false })).toBe(false);
  });
});

describe("policies.annotations", () => {
  const policy = policies.annotations();

  it("allows a read-only tool without asking", async () => {
    const { call, questions } = appCall({ annotations: { readOnlyHint: true } });
    expect(await policy(call)).toBe(true);
    // Read-only wins over the open-world default.
    expect(questions).toEqual([]);
  });

  it("asks about a destructive tool", async () => {
    const { call, questions } = appCall({
      annotations: { destructiveHint: true, openWorldHint: false },
      answer: "No.",
    });
    expect(await policy(call)).toBe("No.");
    expect(questions).toEqual(["This tool may change or delete data."]);
  });

  it("asks about an open-world tool that isn't destructive", async () => {
    const { call, questions } = appCall({ annotations: { destructiveHint: false } });
    expect(await policy(call)).toBe(true);
    expect(questions).toEqual(["This tool may reach services outside this host."]);
  });

  it("asks about an unannotated tool", async () => {
    const { call, questions } = appCall();
    await policy(call);
    expect(questions).toEqual(["This tool doesn't say whether it changes anything."]);
  });

  it("asks when a missing hint defaults to destructive", async () => {
    const { call, questions } = appCall({ annotations: { idempotentHint: true } });
    await policy(call);
    expect(questions).toEqual(["This tool may change or delete data."]);
  });

  it("allows a closed-world tool that isn't destructive", async () => {
    const { call, questions } = appCall({
      annotations: { destructiveHint: false, openWorldHint: false },
    });
    expect(await policy(call)).toBe(true);
    expect(questions).toEqual([]);
  });

  it("takes the question from the options", async () => {
    const custom = policies.annotations({
      question: (call, concern) => `${call.name}: ${concern}`,
    });
    const { call, questions } = appCall({ annotations: { destructiveHint: true } });
    await custom(call);
    expect(questions).toEqual(["delete-note: destructive"]);
  });

  it("gives the page the person's refusal through the gate", async () => {
    const { call } = appCall({ answer: false });
    expect(await runAppCallChain([policy], call, { warn: () => {} })).toEqual({
      allowed: false,
      reason: 'The host refused the call to "delete-note".',
    });
  });
});

describe("policies.rules", () => {
  const policy = policies.rules({
    default: "refuse",
    rules: [
      { tool: "get-time", verdict: "allow" },
      { source: "notes", tool: "delete-note", verdict: "ask", reason: "Delete a note?" },
      { source: "files", verdict: "refuse", reason: "Files are read by the model only." },
      { annotation: "readOnly", verdict: "allow" },
      { annotation: "destructive", verdict: "ask" },
    ],
  });

  it("lets the first matching rule decide", async () => {
    expect(await policy(appCall({ name: "get-time", source: "files" }).call)).toBe(true);
    expect(
      await policy(
        appCall({ name: "list", source: "files", annotations: { readOnlyHint: true } }).call,
      ),
    ).toBe("Files are read by the model only.");
  });

  it("asks with the rule's reason as the question", async () => {
    const { call, questions } = appCall({
      name: "delete-note",
      source: "notes",
      answer: "Keep it.",
    });
    expect(await policy(call)).toBe("Keep it.");
    expect(questions).toEqual(["Delete a note?"]);
  });

  it("matches annotations with the MCP defaults filled in", async () => {
    expect(
      await policy(
        appCall({ name: "list", source: "other", annotations: { readOnlyHint: true } }).call,
      ),
    ).toBe(true);
    // Unannotated means destructive by default: the destructive rule asks, without a question.
    const { call, questions } = appCall({ name: "wipe", source: "other" });
    await policy(call);
    expect(questions).toEqual([undefined]);
  });

  it("falls back to the default verdict", async () => {
    const closed = appCall({
      name: "tidy",
      source: "other",
      annotations: { destructiveHint: false, openWorldHint: false },
    });
    expect(await policy(closed.call)).toBe(false);
    expect(await runAppCallChain([policy], closed.call, { warn: () => {} })).toEqual({
      allowed: false,
      reason: 'The host refused the call to "tidy".',
    });
  });

  it("asks by default when the default is missing", async () => {
    const { call, questions } = appCall({ answer: true });
    expect(await policies.rules({})(call)).toBe(true);
    expect(questions).toEqual([undefined]);
    expect(parseAppCallRules({})).toEqual({ default: "ask", rules: [] });
  });

  it("refuses with the default message when a refusing rule has no reason", async () => {
    const refuseNotes = policies.rules({
      default: "allow",
      rules: [{ source: "notes", verdict: "refuse" }],
    });
    expect(await refuseNotes(appCall().call)).toBe(false);
    expect(await refuseNotes(appCall({ source: "weather" }).call)).toBe(true);
  });

  it("rejects a policy that is not valid, saying where", () => {
    expect(() =>
      policies.rules({
        default: "maybe",
        rules: [
          { tool: "x", verdcit: "allow" },
          { annotation: "safe", verdict: "allow" },
        ],
      }),
    ).toThrow(PolicyConfigError);
    try {
      parseAppCallRules({ default: "maybe", rules: [{ tool: "x", verdcit: "allow" }] });
    } catch (error) {
      expect(error).toBeInstanceOf(PolicyConfigError);
      expect((error as PolicyConfigError).code).toBe("invalid_policy");
      expect((error as Error).message).toBe(
        'The onAppCall policy is not valid. host.onAppCall.default: Invalid option: expected one of "allow"|"refuse"|"ask"; host.onAppCall.rules[0].verdict: Invalid option: expected one of "allow"|"refuse"|"ask"; host.onAppCall.rules[0]: Unrecognized key: "verdcit". Fix it in the configuration file.',
      );
      return;
    }
    expect.unreachable("parseAppCallRules should have thrown");
  });

  it("rejects a policy that isn't an object", () => {
    expect(() => parseAppCallRules("allow")).toThrow(
      /^The onAppCall policy is not valid\. host\.onAppCall: /,
    );
    expect(() => parseAppCallRules({ rules: [{ tool: "", verdict: "allow" }] })).toThrow(
      /host\.onAppCall\.rules\[0\]\.tool: /,
    );
  });
});

describe("policies.allowAll and policies.refuseAll", () => {
  it("allow every call, or refuse every call", async () => {
    const { call } = appCall();
    expect(policies.allowAll(call)).toBe(true);
    expect(policies.refuseAll("Read-only demo.")(call)).toBe("Read-only demo.");
    expect(await runAppCallChain([policies.refuseAll()], call, { warn: () => {} })).toEqual({
      allowed: false,
      reason: 'The host refused the call to "delete-note".',
    });
  });
});
