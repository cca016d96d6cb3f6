import type { ElicitationRequest } from "@mcp-chat-host/protocol";
import type { ElicitRequestParams } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ElicitationBroker,
  MAX_WAITING_QUESTIONS,
  type ElicitationOutcome,
} from "./elicitation-broker";
import {
  answerNotSent,
  cannotShowQuestion,
  notWebAddress,
  tooManyQuestions,
  unansweredQuestion,
  unattributedQuestion,
  unknownQuestion,
} from "./elicitation-sentences";

const form: ElicitRequestParams = {
  mode: "form",
  message: "Your name?",
  requestedSchema: {
    type: "object",
    properties: { name: { type: "string", title: "Name" } },
    required: ["name"],
  },
};

function brokerWith(timeoutMs = 60_000) {
  const requests: ElicitationRequest[] = [];
  const settled: [string, ElicitationOutcome][] = [];
  const notices: string[] = [];
  const warnings: string[] = [];
  let next = 0;
  const broker = new ElicitationBroker({
    onRequest: (request) => requests.push(request),
    onSettle: (id, outcome) => settled.push([id, outcome]),
    notify: (message) => notices.push(message),
    warn: (_details, message) => warnings.push(message),
    timeoutMs,
    now: () => 1_000,
    createId: () => `question-${(next += 1)}`,
  });
  return { broker, requests, settled, notices, warnings };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ElicitationBroker", () => {
  it("asks with the server's name and expiry, and accepts a checked form", async () => {
    const { broker, requests, settled } = brokerWith();
    const asked = broker.ask(
      { server: "files", params: form, chatId: "chat-1" },
      new AbortController().signal,
    );
    expect(requests).toEqual([
      {
        elicitationId: "question-1",
        server: "files",
        chatId: "chat-1",
        mode: "form",
        message: "Your name?",
        requestedSchema: form.requestedSchema,
        expiresAt: 61_000,
      },
    ]);
    expect(() => broker.answer("question-1", { action: "accept", content: {} })).toThrow(
      answerNotSent(['Fill in "Name"; it is required.']),
    );
    expect(broker.pending()).toHaveLength(1);
    broker.answer("question-1", { action: "accept", content: { name: "Ada" } });
    expect(await asked).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(settled).toEqual([["question-1", "answered"]]);
    expect(broker.pending()).toEqual([]);
  });

  it("refuses an answer to a question that no longer waits", () => {
    const { broker } = brokerWith();
    expect(() => broker.answer("nothing", { action: "decline" })).toThrow(unknownQuestion());
  });

  it("times out with cancel and a notice naming the server", async () => {
    vi.useFakeTimers();
    const { broker, settled, notices } = brokerWith(1_000);
    const asked = broker.ask({ server: "files", params: form }, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await asked).toEqual({ action: "cancel" });
    expect(settled).toEqual([["question-1", "timed-out"]]);
    expect(notices).toEqual([unansweredQuestion("files")]);
    expect(notices[0]).toBe(
      "The question from files went unanswered and was cancelled; send your request again to be asked again.",
    );
  });

  it("withdraws a question when its call ends, and every question when the session ends", async () => {
    const { broker, settled } = brokerWith();
    const call = new AbortController();
    const first = broker.ask({ server: "files", params: form }, call.signal);
    const second = broker.ask({ server: "files", params: form }, new AbortController().signal);
    call.abort();
    expect(await first).toEqual({ action: "cancel" });
    broker.close();
    expect(await second).toEqual({ action: "cancel" });
    expect(settled).toEqual([
      ["question-1", "withdrawn"],
      ["question-2", "withdrawn"],
    ]);
    expect(
      await broker.ask({ server: "files", params: form }, new AbortController().signal),
    ).toEqual({ action: "cancel" });
  });

  it("accepts a URL question without values, and declines one that is not a web page", async () => {
    const { broker, requests, notices } = brokerWith();
    const page = {
      mode: "url",
      message: "Sign in",
      url: "https://example.com/a",
      elicitationId: "e",
    } as const;
    const asked = broker.ask({ server: "files", params: page }, new AbortController().signal);
    expect(requests[0]).toMatchObject({ mode: "url", url: "https://example.com/a" });
    expect(requests[0]).not.toHaveProperty("requestedSchema");
    broker.answer("question-1", { action: "accept", content: { sneaky: true } });
    expect(await asked).toEqual({ action: "accept" });

    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "not a url"]) {
      const refused = await broker.ask(
        { server: "files", params: { ...page, url } },
        new AbortController().signal,
      );
      expect(refused).toEqual({ action: "decline" });
    }
    expect(requests).toHaveLength(1);
    expect(notices[0]).toBe(
      "files asked you to open an address that is not a web page (http or https), so it was declined.",
    );
    expect(notices[0]).toBe(notWebAddress("files"));
  });

  it("declines a form it cannot show, and questions past the limit", async () => {
    const { broker, notices, warnings } = brokerWith();
    const odd = {
      ...form,
      requestedSchema: { type: "object", properties: { x: { type: "object" } } },
    };
    expect(
      await broker.ask({ server: "files", params: odd as never }, new AbortController().signal),
    ).toEqual({ action: "decline" });
    expect(notices).toEqual([cannotShowQuestion("files")]);
    expect(notices[0]).toBe(
      "files asked a question this host cannot show as a form, so it was declined.",
    );
    for (let index = 0; index < MAX_WAITING_QUESTIONS; index += 1) {
      void broker.ask({ server: "files", params: form }, new AbortController().signal);
    }
    expect(
      await broker.ask({ server: "files", params: form }, new AbortController().signal),
    ).toEqual({ action: "decline" });
    expect(warnings).toContain(tooManyQuestions(MAX_WAITING_QUESTIONS));
    broker.close();
  });
});

describe("ElicitationBroker when the tab cannot be told", () => {
  it("withdraws the question at once, with a warning", async () => {
    const warnings: string[] = [];
    const broker = new ElicitationBroker({
      onRequest: () => {
        throw new Error("socket gone");
      },
      onSettle: () => undefined,
      notify: () => undefined,
      warn: (_details, message) => warnings.push(message),
      timeoutMs: 60_000,
      now: () => 0,
    });
    expect(
      await broker.ask({ server: "files", params: form }, new AbortController().signal),
    ).toEqual({
      action: "cancel",
    });
    expect(warnings).toEqual(["couldn't show a question to the person: socket gone"]);
    expect(broker.pending()).toEqual([]);
  });
});

describe("the sentences", () => {
  it("say what happened", () => {
    expect(answerNotSent(["A.", "B."])).toBe("Your answer was not sent: A. B.");
    expect(unknownQuestion()).toBe(
      "That question is no longer waiting; it was answered, withdrawn or timed out.",
    );
    expect(unattributedQuestion(0)).toBe(
      "declined a question: no call of a person's was in flight on this connection",
    );
    expect(unattributedQuestion(2)).toBe(
      "declined a question: calls of 2 sessions were in flight on this shared connection, so who was asked is unknown",
    );
  });
});
