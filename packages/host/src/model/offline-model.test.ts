import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { buildAppContext, withAppContext } from "../context/context-relay";
import type { ContextCard } from "../context/context-relay";
import { runTurn } from "./model-runner";
import { createOfflineModel, splitIntoChunks } from "./offline-model";
import { FIXED_TIME, startTestToolServer } from "../testing/model-fixtures";
import type { TestToolServer } from "../testing/model-fixtures";
import type { TurnEvent } from "./turn-events";

let server: TestToolServer;
beforeAll(async () => {
  server = await startTestToolServer();
});
afterAll(async () => {
  await server.close();
});

/** One turn of the offline model over the test server's tools, as a chat would run it. */
async function ask(text: string, options: { messages?: ModelMessage[]; write?: boolean } = {}) {
  server.calls.length = 0;
  const events: TurnEvent[] = [];
  const result = await runTurn({
    model: createOfflineModel(),
    messages: options.messages ?? [{ role: "user", content: text }],
    tools: server.tools,
    maxSteps: 4,
    maxToolCalls: 4,
    permissions: { web: false, write: options.write ?? false },
    events: (event) => events.push(event),
  });
  const started = events.flatMap((event) =>
    event.type === "tool-call" ? [[event.name, event.arguments]] : [],
  );
  return { ...result, started, calls: [...server.calls], events };
}

const toolList =
  "Tools I can call: get-time (Server Time), add, echo, delete-note, fetch-page, fail, slow.";
const syntax =
  "To call a tool, name it in your message, or write /call <tool> <json-object>, " +
  "for example /call get-time {} (the JSON object of arguments is optional).";

describe("/call <tool> <json-object?>", () => {
  test("calls the tool with those arguments, then reports what it returned", async () => {
    const turn = await ask('/call add {"a": 2, "b": 3}');
    expect(turn.started).toEqual([["add", { a: 2, b: 3 }]]);
    expect(turn.calls).toEqual(["add"]);
    // Structured content is what the model sees, stringified by the offline model.
    expect(turn.text).toBe('add returned: {"sum":5}');
    expect(turn.status).toBe("complete");
  });

  test("without arguments calls the tool with {}", async () => {
    const turn = await ask("/call get-time");
    expect(turn.started).toEqual([["get-time", {}]]);
    expect(turn.text).toBe(`get-time returned: ${FIXED_TIME}`);
  });

  test("bad JSON answers with the syntax and calls nothing", async () => {
    const turn = await ask("/call add {a: 2}");
    expect(turn.started).toEqual([]);
    expect(turn.text).toBe(
      `I couldn't make that call: the arguments for add are not valid JSON.\n${syntax}`,
    );
  });

  test("arguments that are not an object answer with the syntax", async () => {
    const turn = await ask("/call add [2, 3]");
    expect(turn.started).toEqual([]);
    expect(turn.text).toBe(
      `I couldn't make that call: the arguments for add must be a JSON object.\n${syntax}`,
    );
  });

  test("/call alone asks for a tool name; an unknown tool lists the tools", async () => {
    expect((await ask("/call")).text).toBe(
      `I couldn't make that call: name the tool to call.\n${syntax}`,
    );
    expect((await ask("/call nope {}")).text).toBe(`I have no tool named "nope". ${toolList}`);
  });
});

describe("a message that names a tool", () => {
  test("by name, any case, calls it with {} when nothing is required", async () => {
    const turn = await ask("What does GET-TIME say?");
    expect(turn.started).toEqual([["get-time", {}]]);
    expect(turn.text).toBe(`get-time returned: ${FIXED_TIME}`);
  });

  test("by title, as whole words", async () => {
    expect((await ask("show me the server time, please")).started).toEqual([["get-time", {}]]);
  });

  test("part of a longer word does not count", async () => {
    const turn = await ask("forget-time and get-timer and servertime");
    expect(turn.started).toEqual([]);
    expect(turn.text.startsWith("No apps are open.")).toBe(true);
  });

  test("when several match, the first in the tools' order wins", async () => {
    // "echo" comes first in the message, get-time first in the listing.
    const turn = await ask("echo, then get-time");
    expect(turn.started).toEqual([["get-time", {}]]);
  });

  test("a tool with required arguments is not called; the answer names them", async () => {
    const turn = await ask("please add these");
    expect(turn.started).toEqual([]);
    expect(turn.text).toBe(
      'add needs these arguments: a, b. Call it with /call add {"a": ..., "b": ...}, ' +
        'putting a value in place of each "...".',
    );
  });
});

describe("after a tool result", () => {
  test("the first text, cut to 500 characters", async () => {
    const turn = await ask(`/call echo {"text": "${"x".repeat(600)}"}`);
    expect(turn.text).toBe(`echo returned: ${"x".repeat(497)}...`);
    expect(turn.text.length - "echo returned: ".length).toBe(500);
  });

  test("an error result reports its error text", async () => {
    expect((await ask("/call fail")).text).toBe("fail returned: Disk is full");
  });

  test("a refused call reports the refusal the model was given, and the tool never ran", async () => {
    const turn = await ask("/call delete-note");
    expect(turn.calls).toEqual([]);
    expect(turn.text).toBe(
      "delete-note returned: Tool call rejected. " +
        "Tool is marked as destructive and write operations are disabled",
    );
  });
});

describe("with no tool named", () => {
  test("app context present: one line per app, title and first line of its report", async () => {
    const card = (id: string, title: string, text: string, reportedAt: number): ContextCard => ({
      instanceId: id,
      title,
      tool: "tool",
      kind: "card",
      ownerChat: "chat",
      disposed: false,
      report: { content: [{ type: "text", text }] },
      reportedAt,
    });
    const context = buildAppContext(
      [
        card("host-1", 'Notes "work"', "Showing 8 notes\nfirst: groceries", 1),
        card("host-2", "Clock", "10:00 in Paris", 2),
      ],
      "chat",
    );
    const messages = withAppContext([], { role: "user", content: "what do you see?" }, context);
    const turn = await ask("", { messages });
    expect(turn.text).toBe(
      'I can see 2 apps:\nNotes "work": Showing 8 notes\nClock: 10:00 in Paris',
    );

    const one = buildAppContext([card("host-3", "Clock", "11:00", 1)], "chat");
    const single = await ask("", {
      messages: withAppContext([], { role: "user", content: "hi" }, one),
    });
    expect(single.text).toBe("I can see 1 app:\nClock: 11:00");
  });

  test("no app context: says no apps are open, that it is offline, the tools and the syntax", async () => {
    const turn = await ask("hello");
    expect(turn.text).toBe(
      [
        "No apps are open.",
        "I am the offline model: I follow a few fixed rules and use no network, so I can't hold a real conversation.",
        toolList,
        syntax,
      ].join("\n"),
    );
  });
});

describe("the model interface", () => {
  const prompt: LanguageModelV3CallOptions["prompt"] = [
    { role: "user", content: [{ type: "text", text: "hello there" }] },
  ];

  test("provider and model id are 'offline'", () => {
    const model = createOfflineModel();
    expect([model.provider, model.modelId, model.specificationVersion]).toEqual([
      "offline",
      "offline",
      "v3",
    ]);
  });

  test("streams text in several chunks that join back to the answer", async () => {
    const model = createOfflineModel();
    const { stream } = await model.doStream({ prompt });
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    const deltas = parts.flatMap((part) => (part.type === "text-delta" ? [part.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.length).toBeLessThanOrEqual(8);
    const generated = await model.doGenerate({ prompt });
    expect(generated.content).toEqual([{ type: "text", text: deltas.join("") }]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  test("with a chunk delay, aborting the call ends the stream with the abort", async () => {
    const model = createOfflineModel({ chunkDelayMs: 1 });
    const controller = new AbortController();
    const { stream } = await model.doStream({ prompt, abortSignal: controller.signal });
    const reader = stream.getReader();
    let part = await reader.read();
    for (let guard = 0; guard < 10 && part.value?.type !== "text-delta"; guard += 1) {
      part = await reader.read();
    }
    expect(part.value?.type).toBe("text-delta");
    const reason = new Error("stopped by the person");
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });

  test("a tool call carries its input as a JSON string, in both modes", async () => {
    const model = createOfflineModel({ generateToolCallId: () => "call-7" });
    const tools = [
      { type: "function" as const, name: "add", inputSchema: { type: "object" as const } },
    ];
    const callPrompt: LanguageModelV3CallOptions["prompt"] = [
      { role: "user", content: [{ type: "text", text: '/call add {"a":1}' }] },
    ];
    const expected = { type: "tool-call", toolCallId: "call-7", toolName: "add", input: '{"a":1}' };
    const generated = await model.doGenerate({ prompt: callPrompt, tools });
    expect(generated.content).toEqual([expected]);
    expect(generated.finishReason.unified).toBe("tool-calls");
    const { stream } = await model.doStream({ prompt: callPrompt, tools });
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([expected]);
  });

  test("the default tool call id is deterministic: it counts the prompt's messages", async () => {
    const model = createOfflineModel();
    const tools = [
      { type: "function" as const, name: "get-time", inputSchema: { type: "object" as const } },
    ];
    const callPrompt: LanguageModelV3CallOptions["prompt"] = [
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "get-time" }] },
    ];
    const generated = await model.doGenerate({ prompt: callPrompt, tools });
    expect(generated.content).toEqual([
      { type: "tool-call", toolCallId: "offline-call-2", toolName: "get-time", input: "{}" },
    ]);
  });
});

test("splitIntoChunks keeps every character and makes at most 8 chunks", () => {
  const text = Array.from({ length: 30 }, (_, index) => `word${index}`).join(" ");
  const chunks = splitIntoChunks(text);
  expect(chunks.join("")).toBe(text);
  expect(chunks.length).toBe(8);
  expect(splitIntoChunks("one")).toEqual(["one"]);
  expect(splitIntoChunks("")).toEqual([]);
});
