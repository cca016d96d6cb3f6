import type { ElicitationRequest } from "@mcp-chat-host/protocol";
import type { ElicitRequestParams } from "@modelcontextprotocol/client";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { ElicitationBroker } from "./elicitation-broker";
import { ElicitationCaller, routeElicitation } from "./elicitation-routing";

const question: ElicitRequestParams = {
  mode: "form",
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
};

function session() {
  const requests: ElicitationRequest[] = [];
  const broker = new ElicitationBroker({
    onRequest: (request) => requests.push(request),
    onSettle: () => undefined,
    notify: () => undefined,
    warn: () => undefined,
    timeoutMs: 60_000,
    now: () => 0,
  });
  return { broker, requests };
}

function logged() {
  const lines: { msg: string; source?: string }[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

function call(caller: unknown) {
  const settled = new AbortController();
  return { entry: { caller, settled: settled.signal }, settle: () => settled.abort() };
}

describe("routeElicitation", () => {
  it("asks the one session whose calls were in flight, naming its chat", async () => {
    const { broker, requests } = session();
    const { logger } = logged();
    const first = call(new ElicitationCaller(broker, "chat-1"));
    const answer = routeElicitation(logger)(question, {
      server: "files",
      signal: new AbortController().signal,
      callers: [first.entry, call("not a caller").entry],
    });
    expect(requests).toMatchObject([{ server: "files", chatId: "chat-1" }]);
    broker.answer(requests[0]!.elicitationId, { action: "decline" });
    expect(await answer).toEqual({ action: "decline" });
  });

  it("declines and logs why when no session, or several sessions, had calls in flight", async () => {
    const one = session();
    const two = session();
    const { logger, lines } = logged();
    const route = routeElicitation(logger);
    const signal = new AbortController().signal;
    expect(await route(question, { server: "files", signal, callers: [] })).toEqual({
      action: "decline",
    });
    const callers = [
      call(new ElicitationCaller(one.broker, "chat-1")).entry,
      call(new ElicitationCaller(two.broker, "chat-1")).entry,
    ];
    expect(await route(question, { server: "files", signal, callers })).toEqual({
      action: "decline",
    });
    expect(one.requests).toEqual([]);
    expect(two.requests).toEqual([]);
    expect(lines.map((line) => [line.source, line.msg])).toEqual([
      ["files", "declined a question: no call of a person's was in flight on this connection"],
      [
        "files",
        "declined a question: calls of 2 sessions were in flight on this shared connection, so who was asked is unknown",
      ],
    ]);
  });

  it("withdraws the question once every call of the session that could have asked ended", async () => {
    const { broker, requests } = session();
    const { logger } = logged();
    const first = call(new ElicitationCaller(broker, "chat-1"));
    const second = call(new ElicitationCaller(broker, "chat-2"));
    const answer = routeElicitation(logger)(question, {
      server: "files",
      signal: new AbortController().signal,
      callers: [first.entry, second.entry],
    });
    // Two chats of the session were calling: the question names neither.
    expect(requests[0]).not.toHaveProperty("chatId");
    first.settle();
    expect(broker.pending()).toHaveLength(1);
    second.settle();
    expect(await answer).toEqual({ action: "cancel" });
    expect(broker.pending()).toEqual([]);
  });
});
