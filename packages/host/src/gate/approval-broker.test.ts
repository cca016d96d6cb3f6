import { approvalRequestSchema, type ApprovalRequest } from "@mcp-chat-host/protocol";
import { describe, expect, it } from "vitest";
import { runAppCallChain, type AppCall } from "./app-call-gate";
import { ApprovalBroker } from "./approval-broker";
import {
  CARD_CLOSED_REFUSAL,
  SESSION_ENDED_REFUSAL,
  cardQuestionsWaitingRefusal,
  sessionQuestionsWaitingRefusal,
  type ApprovalError,
  type ApprovalMemory,
  type ApprovalQuestion,
  type ApprovalSettlement,
  type RememberedApproval,
} from "./approval-types";

/** A broker whose dialog requests arrive in a queue the test can wait on. */
function harness(options: { memory?: ApprovalMemory; warn?: (message: string) => void } = {}) {
  const requests: ApprovalRequest[] = [];
  const waiters: ((request: ApprovalRequest) => void)[] = [];
  const settled: [string, ApprovalSettlement][] = [];
  let nextId = 0;
  const broker = new ApprovalBroker({
    onRequest: (request) => {
      const waiter = waiters.shift();
      if (waiter) waiter(request);
      else requests.push(request);
    },
    onSettle: (approvalId, settlement) => settled.push([approvalId, settlement]),
    createId: () => `approval-${++nextId}`,
    now: () => 1_000,
    ...(options.memory ? { memory: options.memory } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
  /** Resolves with the next dialog request (bounded by the test timeout). */
  const nextRequest = (): Promise<ApprovalRequest> => {
    const queued = requests.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => waiters.push(resolve));
  };
  return { broker, nextRequest, settled, requests };
}

function question(overrides: Partial<ApprovalQuestion> = {}): ApprovalQuestion {
  return {
    conversationId: "conversation-1",
    chatId: "chat-1",
    instanceId: "host-a",
    source: "notes",
    tool: "delete-note",
    title: "Notes",
    arguments: { id: 3 },
    annotations: { destructiveHint: true },
    ...overrides,
  };
}

/** Memory that records what it was asked to keep. */
function fakeMemory(stored: RememberedApproval[] = []) {
  const kept: RememberedApproval[] = [];
  let reads = 0;
  const memory: ApprovalMemory = {
    listApprovals: async (conversationId) => {
      reads++;
      return stored.filter((record) => record.conversationId === conversationId);
    },
    remember: async (record) => {
      kept.push(record);
    },
  };
  return { memory, kept, reads: () => reads };
}

describe("ApprovalBroker", () => {
  it("sends the dialog request and resolves with an allow-once answer", async () => {
    const { broker, nextRequest } = harness();
    const answer = broker.ask(question({ question: "Delete note 3?" }));
    const request = await nextRequest();
    expect(request).toEqual({
      approvalId: "approval-1",
      instanceId: "host-a",
      chatId: "chat-1",
      title: "Notes",
      source: "notes",
      tool: "delete-note",
      arguments: { id: 3 },
      annotations: { destructiveHint: true },
      question: "Delete note 3?",
      createdAt: 1_000,
    });
    expect(approvalRequestSchema.safeParse(request).success).toBe(true);
    await broker.answer("approval-1", { decision: "allow-once" });
    expect(await answer).toBe(true);

    // Once means once: the next call asks again.
    const again = broker.ask(question({ annotations: null }));
    const plain = await nextRequest();
    expect(plain).not.toHaveProperty("question");
    expect(plain).not.toHaveProperty("annotations");
    await broker.answer("approval-2", { decision: "refuse" });
    expect(await again).toBe(false);
  });

  it("maps a refusal to its reason, or to false for the default message", async () => {
    const { broker, nextRequest } = harness();
    const withReason = broker.ask(question());
    await broker.answer((await nextRequest()).approvalId, {
      decision: "refuse",
      reason: "Not that one.",
    });
    expect(await withReason).toBe("Not that one.");

    const blank = broker.ask(question());
    await broker.answer((await nextRequest()).approvalId, { decision: "refuse", reason: "   " });
    expect(await blank).toBe(false);
  });

  it("gives the page the default refusal when the person refuses without a reason", async () => {
    const { broker, nextRequest } = harness();
    const call: AppCall = {
      name: "delete-note",
      arguments: { id: 3 },
      tool: { name: "delete-note", inputSchema: { type: "object" } },
      instanceId: "host-a",
      kind: "card",
      source: "notes",
      chat: "chat-1",
      title: "Notes",
      session: { id: "session-1", user: null },
      ask: (text) => broker.ask(question({ question: text ?? null })),
    };
    const verdict = runAppCallChain([(received) => received.ask()], call, { warn: () => {} });
    await broker.answer((await nextRequest()).approvalId, { decision: "refuse" });
    expect(await verdict).toEqual({
      allowed: false,
      reason: 'The host refused the call to "delete-note".',
    });
  });

  it("remembers allow-card for the same card and tool only", async () => {
    const { memory, kept } = fakeMemory();
    const { broker, nextRequest, requests } = harness({ memory });
    const first = broker.ask(question());
    await broker.answer((await nextRequest()).approvalId, { decision: "allow-card" });
    expect(await first).toBe(true);
    expect(kept).toEqual([
      {
        conversationId: "conversation-1",
        scope: "card",
        instanceId: "host-a",
        source: "notes",
        tool: "delete-note",
        createdAt: 1_000,
      },
    ]);

    expect(await broker.ask(question({ arguments: { id: 4 } }))).toBe(true);
    expect(requests).toHaveLength(0);

    const otherTool = broker.ask(question({ tool: "rename-note" }));
    expect((await nextRequest()).tool).toBe("rename-note");
    const otherCard = broker.ask(question({ instanceId: "host-b" }));
    expect((await nextRequest()).instanceId).toBe("host-b");
    broker.close();
    expect(await otherTool).toBe(SESSION_ENDED_REFUSAL);
    expect(await otherCard).toBe(SESSION_ENDED_REFUSAL);
  });

  it("remembers allow-conversation for the same source and tool in that conversation", async () => {
    const { memory, kept } = fakeMemory();
    const { broker, nextRequest } = harness({ memory });
    const first = broker.ask(question());
    await broker.answer((await nextRequest()).approvalId, { decision: "allow-conversation" });
    expect(await first).toBe(true);
    expect(kept).toEqual([
      {
        conversationId: "conversation-1",
        scope: "conversation",
        instanceId: null,
        source: "notes",
        tool: "delete-note",
        createdAt: 1_000,
      },
    ]);

    expect(await broker.ask(question({ instanceId: "host-b" }))).toBe(true);

    const otherSource = broker.ask(question({ source: "files" }));
    expect((await nextRequest()).source).toBe("files");
    const otherConversation = broker.ask(question({ conversationId: "conversation-2" }));
    expect((await nextRequest()).approvalId).toBe("approval-3");
    broker.close();
    await Promise.all([otherSource, otherConversation]);
  });

  it("loads remembered answers with the conversation, once for concurrent asks", async () => {
    const { memory, reads } = fakeMemory([
      {
        conversationId: "conversation-1",
        scope: "conversation",
        instanceId: null,
        source: "notes",
        tool: "delete-note",
        createdAt: 5,
      },
      {
        conversationId: "conversation-1",
        scope: "card",
        instanceId: "host-z",
        source: "notes",
        tool: "rename-note",
        createdAt: 6,
      },
    ]);
    const { broker, requests } = harness({ memory });
    const answers = await Promise.all([
      broker.ask(question({ instanceId: "host-new" })),
      broker.ask(question({ instanceId: "host-z", tool: "rename-note" })),
    ]);
    expect(answers).toEqual([true, true]);
    expect(reads()).toBe(1);
    expect(requests).toHaveLength(0);
  });

  it("asks the person when remembered answers can't be read, and reads again next time", async () => {
    const warnings: string[] = [];
    let fail = true;
    const memory: ApprovalMemory = {
      listApprovals: () => {
        if (fail) throw new Error("disk busy");
        return [
          {
            conversationId: "conversation-1",
            scope: "conversation",
            instanceId: null,
            source: "notes",
            tool: "delete-note",
            createdAt: 1,
          },
        ];
      },
      remember: () => {},
    };
    const { broker, nextRequest } = harness({ memory, warn: (message) => warnings.push(message) });
    const first = broker.ask(question());
    await broker.answer((await nextRequest()).approvalId, { decision: "allow-once" });
    expect(await first).toBe(true);
    expect(warnings).toEqual([
      'Couldn\'t read the remembered approvals of conversation "conversation-1" (disk busy); the person is asked instead.',
    ]);
    fail = false;
    expect(await broker.ask(question())).toBe(true);
  });

  it("keeps several requests waiting at once and answers each its own way", async () => {
    const { broker, nextRequest } = harness();
    const answers = [
      broker.ask(question({ instanceId: "host-1" })),
      broker.ask(question({ instanceId: "host-2" })),
      broker.ask(question({ instanceId: "host-3" })),
    ];
    const ids = [
      (await nextRequest()).approvalId,
      (await nextRequest()).approvalId,
      (await nextRequest()).approvalId,
    ];
    expect(broker.pending().map((request) => request.instanceId)).toEqual([
      "host-1",
      "host-2",
      "host-3",
    ]);
    await broker.answer(ids[2]!, { decision: "refuse", reason: "Third no." });
    await broker.answer(ids[0]!, { decision: "allow-once" });
    await broker.answer(ids[1]!, { decision: "refuse" });
    expect(await Promise.all(answers)).toEqual([true, false, "Third no."]);
    expect(broker.pending()).toEqual([]);
  });

  it("allows the waiting requests a remembered answer covers", async () => {
    const { broker, nextRequest, settled } = harness();
    const first = broker.ask(question({ arguments: { id: 1 } }));
    const second = broker.ask(question({ arguments: { id: 2 } }));
    const otherCard = broker.ask(question({ instanceId: "host-b" }));
    const [a, b, c] = [await nextRequest(), await nextRequest(), await nextRequest()];
    await broker.answer(a.approvalId, { decision: "allow-card" });
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(settled).toEqual([
      [a.approvalId, "answered"],
      [b.approvalId, "remembered"],
    ]);
    expect(broker.pending().map((request) => request.approvalId)).toEqual([c.approvalId]);
    broker.close();
    expect(await otherCard).toBe(SESSION_ENDED_REFUSAL);
  });

  it("rejects an answer to an unknown or already answered request", async () => {
    const { broker, nextRequest } = harness();
    await expect(broker.answer("nope", { decision: "allow-once" })).rejects.toMatchObject({
      code: "unknown_approval",
      message: 'No approval "nope" is waiting; it was answered or cancelled already.',
    });
    const answer = broker.ask(question());
    const { approvalId } = await nextRequest();
    await broker.answer(approvalId, { decision: "allow-once" });
    await expect(broker.answer(approvalId, { decision: "refuse" })).rejects.toMatchObject({
      code: "unknown_approval",
    });
    expect(await answer).toBe(true);
  });

  it("rejects an answer that isn't one of the decisions, and keeps the request waiting", async () => {
    const { broker, nextRequest } = harness();
    const answer = broker.ask(question());
    const { approvalId } = await nextRequest();
    const error = await broker
      .answer(approvalId, { decision: "allow-forever" as "allow-once" })
      .catch((caught: ApprovalError) => caught);
    expect(error).toMatchObject({
      code: "invalid_answer",
      message:
        '"allow-forever" is not an answer; send one of allow-once, allow-card, allow-conversation, refuse.',
    });
    expect(broker.pending()).toHaveLength(1);
    broker.close();
    expect(await answer).toBe(SESSION_ENDED_REFUSAL);
  });

  it("refuses every waiting request when the session ends, and every later ask", async () => {
    const { broker, nextRequest, settled } = harness();
    const answers = [broker.ask(question()), broker.ask(question({ instanceId: "host-b" }))];
    await nextRequest();
    await nextRequest();
    broker.close();
    expect(await Promise.all(answers)).toEqual([SESSION_ENDED_REFUSAL, SESSION_ENDED_REFUSAL]);
    expect(SESSION_ENDED_REFUSAL).toBe("The person did not answer; the session ended.");
    expect(settled.map(([, settlement]) => settlement)).toEqual(["cancelled", "cancelled"]);
    expect(await broker.ask(question())).toBe(SESSION_ENDED_REFUSAL);
  });

  it("refuses a closed card's waiting requests only", async () => {
    const { broker, nextRequest } = harness();
    const closing = broker.ask(question({ instanceId: "host-a" }));
    const staying = broker.ask(question({ instanceId: "host-b" }));
    await nextRequest();
    const { approvalId } = await nextRequest();
    broker.cancelCard("host-a");
    expect(await closing).toBe(CARD_CLOSED_REFUSAL);
    await broker.answer(approvalId, { decision: "allow-once" });
    expect(await staying).toBe(true);
  });

  it("applies an answer it couldn't save and says so", async () => {
    const memory: ApprovalMemory = {
      listApprovals: () => [],
      remember: async () => {
        throw new Error("database is locked");
      },
    };
    const { broker, nextRequest } = harness({ memory });
    const answer = broker.ask(question());
    const { approvalId } = await nextRequest();
    await expect(
      broker.answer(approvalId, { decision: "allow-conversation" }),
    ).rejects.toMatchObject({
      code: "memory_failed",
      message:
        "The answer was applied, but it couldn't be saved with the conversation (database is locked); it holds until the session ends.",
    });
    expect(await answer).toBe(true);
    expect(await broker.ask(question({ instanceId: "host-b" }))).toBe(true);
  });

  it("rejects the ask when the dialog can't be sent, leaving nothing waiting", async () => {
    const broker = new ApprovalBroker({
      onRequest: () => {
        throw new Error("socket gone");
      },
    });
    await expect(broker.ask(question())).rejects.toThrow("socket gone");
    expect(broker.pending()).toEqual([]);
  });

  it("keeps a pane's answers for the session without saving them", async () => {
    const { memory, kept } = fakeMemory();
    const { broker, nextRequest } = harness({ memory });
    const first = broker.ask(question({ conversationId: null }));
    await broker.answer((await nextRequest()).approvalId, { decision: "allow-conversation" });
    expect(await first).toBe(true);
    expect(await broker.ask(question({ conversationId: null, instanceId: "host-b" }))).toBe(true);
    expect(kept).toEqual([]);
  });

  describe("bounded questions", () => {
    it("keeps at most 3 questions of one card waiting and refuses the rest at once", async () => {
      const { broker, requests, nextRequest } = harness();
      const answers = Array.from({ length: 140 }, (_value, index) =>
        broker.ask(question({ arguments: { id: index } })),
      );
      const refused = answers.slice(3);
      expect(await Promise.all(refused)).toEqual(refused.map(() => cardQuestionsWaitingRefusal(3)));
      expect(cardQuestionsWaitingRefusal(3)).toBe(
        "The person hasn't answered this app's earlier questions yet (3 are waiting), so this call was refused; ask again after they answer.",
      );
      expect(requests.map((request) => request.arguments)).toEqual([
        { id: 0 },
        { id: 1 },
        { id: 2 },
      ]);
      expect(broker.pending()).toHaveLength(3);

      // An answer makes room for one more question.
      await broker.answer((await nextRequest()).approvalId, { decision: "allow-once" });
      expect(await answers[0]).toBe(true);
      void broker.ask(question({ arguments: { id: "again" } }));
      await nextRequest();
      await nextRequest();
      expect((await nextRequest()).arguments).toEqual({ id: "again" });
      expect(broker.pending().map((request) => request.arguments)).toEqual([
        { id: 1 },
        { id: 2 },
        { id: "again" },
      ]);
      expect(await broker.ask(question({ arguments: { id: "one too many" } }))).toBe(
        cardQuestionsWaitingRefusal(3),
      );
    });

    it("keeps at most 10 questions of a session waiting, whichever cards ask", async () => {
      const { broker, requests } = harness();
      const answers = Array.from({ length: 5 }, (_value, card) =>
        Array.from({ length: 3 }, () => broker.ask(question({ instanceId: `host-${card}` }))),
      ).flat();
      const results = await Promise.all(answers.slice(10));
      expect(results).toEqual(results.map(() => sessionQuestionsWaitingRefusal(10)));
      expect(sessionQuestionsWaitingRefusal(10)).toBe(
        "The person has 10 questions from apps waiting already, so this call was refused; ask again after they answer.",
      );
      expect(requests).toHaveLength(10);
      expect(broker.pending()).toHaveLength(10);
      broker.close();
      expect(await Promise.all(answers.slice(0, 10))).toEqual(
        answers.slice(0, 10).map(() => SESSION_ENDED_REFUSAL),
      );
    });

    it("takes its limits from the options, and remembered answers need no room", async () => {
      const { memory } = fakeMemory([
        {
          conversationId: "conversation-1",
          scope: "conversation",
          instanceId: null,
          source: "notes",
          tool: "read-note",
          createdAt: 1,
        },
      ]);
      const requests: ApprovalRequest[] = [];
      const broker = new ApprovalBroker({
        onRequest: (request) => requests.push(request),
        memory,
        maxWaitingPerCard: 1,
        maxWaitingPerSession: 2,
      });
      void broker.ask(question());
      expect(await broker.ask(question())).toBe(cardQuestionsWaitingRefusal(1));
      expect(await broker.ask(question({ tool: "read-note" }))).toBe(true);
      void broker.ask(question({ instanceId: "host-b" }));
      expect(await broker.ask(question({ instanceId: "host-c" }))).toBe(
        sessionQuestionsWaitingRefusal(2),
      );
      expect(requests).toHaveLength(2);
    });
  });
});
