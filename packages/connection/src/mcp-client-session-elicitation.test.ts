// A server's questions through McpClientSession, against the scripted stdio fixture: the
// `elicitation` capability is declared only with `onElicitation`, and the handler hears of the
// question with the caller tags of the requests in flight and when each ended.
import { afterEach, describe, expect, it } from "vitest";
import { McpClientSession } from "./mcp-client-session";
import type { McpElicitationContext } from "./mcp-client-session-types";
import { newRecordFile, readRecord, scriptedEntry } from "../test/fixtures/fixture-helpers";

const sessions: McpClientSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

async function open(options: Parameters<typeof McpClientSession.open>[1] = {}) {
  const record = newRecordFile();
  const session = await McpClientSession.open(scriptedEntry("scripted", record), {
    timeout: 5,
    startupTimeout: 10,
    ...options,
  });
  sessions.push(session);
  return { session, record };
}

/** The capabilities the client declared in `initialize`. */
function declared(record: string): Record<string, unknown> {
  const initialize = readRecord(record).find((event) => event["method"] === "initialize");
  return (initialize?.["params"] as { capabilities: Record<string, unknown> }).capabilities;
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as Array<{ text?: string }>;
  return first?.text ?? "";
}

describe("McpClientSession elicitation", () => {
  it("declares no elicitation capability without onElicitation, so the server may not ask", async () => {
    const { session, record } = await open();
    expect(declared(record)).not.toHaveProperty("elicitation");
    // A server that asks anyway is answered with an error, not a dialog.
    expect(text(await session.callTool("ask"))).toContain('"code":-32601');
  });

  it("declares both modes and answers through onElicitation, with the callers in flight", async () => {
    const heard: { request: unknown; context: McpElicitationContext }[] = [];
    const { session, record } = await open({
      onElicitation: async (request, context) => {
        heard.push({ request, context });
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    expect(declared(record)).toMatchObject({ elicitation: { form: {}, url: {} } });

    const result = await session.callTool("ask", {}, { caller: "tag-1" });
    expect(JSON.parse(text(result))).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(heard).toHaveLength(1);
    const [{ request, context }] = heard as [(typeof heard)[number]];
    expect(request).toMatchObject({ mode: "form", message: "Your name?" });
    expect(context.server).toBe("scripted");
    expect(context.callers.map((call) => call.caller)).toEqual(["tag-1"]);
    // The call has ended: its `settled` signal says so; the question's own signal did not fire.
    expect(context.callers[0]?.settled.aborted).toBe(true);
    expect(context.signal.aborted).toBe(false);
  });

  it("settles tagged calls nobody asked about, and a later question sees only its own caller", async () => {
    const heard: McpElicitationContext[] = [];
    const { session } = await open({
      onElicitation: async (_request, context) => {
        heard.push(context);
        return { action: "decline" };
      },
    });
    // No question during these calls: each settles with its answer, and its tag is gone.
    for (const tag of ["quiet-1", "quiet-2"]) {
      expect(text(await session.callTool("echo", { text: tag }, { caller: tag }))).toContain(tag);
    }
    await session.callTool("ask", {}, { caller: "asking" });
    expect(heard.map((context) => context.callers.map((call) => call.caller))).toEqual([
      ["asking"],
    ]);
    expect(heard[0]?.callers[0]?.settled.aborted).toBe(true);
  });

  it("withdraws a waiting question when the session ends", async () => {
    let waiting: McpElicitationContext | undefined;
    const { session } = await open({
      onElicitation: (_request, context) => {
        waiting = context;
        return new Promise(() => undefined);
      },
    });
    const call = session.callTool("ask").catch((error: unknown) => error);
    await expect.poll(() => waiting).toBeDefined();
    await session.cancel();
    expect(waiting?.signal.aborted).toBe(true);
    await call;
  });
});
