import {
  approvalDecisions,
  errorMessage,
  type ApprovalDecision,
  type ApprovalRequest,
} from "@mcp-chat-host/protocol";
import {
  ApprovalError,
  CARD_CLOSED_REFUSAL,
  DEFAULT_MAX_WAITING_PER_CARD,
  DEFAULT_MAX_WAITING_PER_SESSION,
  SESSION_ENDED_REFUSAL,
  cardQuestionsWaitingRefusal,
  sessionQuestionsWaitingRefusal,
  type ApprovalAnswer,
  type ApprovalBrokerOptions,
  type ApprovalMemory,
  type ApprovalOutcome,
  type ApprovalQuestion,
  type ApprovalSettlement,
  type RememberedApproval,
} from "./approval-types";

interface PendingApproval {
  readonly request: ApprovalRequest;
  readonly question: ApprovalQuestion;
  readonly resolve: (value: boolean | string) => void;
}

interface ConversationMemory {
  readonly records: RememberedApproval[];
  /** The read of the stored answers; resolves to false when it failed. */
  loaded: Promise<boolean> | null;
}

/** Memory key for answers given outside any conversation (panes): they last for the session. */
const NO_CONVERSATION = "\u0000session";

/**
 * One session's approval dialogs: `ask` sends a request to the person's browser and resolves with
 * their answer; answers that cover a card or a conversation are remembered and answer later asks
 * without a dialog. Several requests may wait at once, up to a bound per card and per session
 * (a flood of asks gets refusals, never a queue); nothing else in the session waits for them.
 */
export class ApprovalBroker {
  readonly #options: ApprovalBrokerOptions;
  readonly #pending = new Map<string, PendingApproval>();
  readonly #memory = new Map<string, ConversationMemory>();
  #closed = false;

  /** @param options - where requests go and where answers are kept. */
  constructor(options: ApprovalBrokerOptions) {
    this.#options = options;
  }

  /**
   * Asks the person about one call, unless a remembered answer already allows it.
   *
   * @param question - the call and its card.
   * @returns `true` to allow; a refusal string or `false` (default message) to refuse. After the
   *   session ended, resolves at once with {@link SESSION_ENDED_REFUSAL}.
   * @throws whatever `onRequest` throws (the dialog couldn't be sent); the gate turns that into a
   *   refusal with a warning.
   */
  async ask(question: ApprovalQuestion): Promise<boolean | string> {
    if (this.#closed) return SESSION_ENDED_REFUSAL;
    const memory = await this.#loadMemory(question.conversationId);
    if (this.#closed) return SESSION_ENDED_REFUSAL;
    const remembered = memory.records.find((record) => covers(record, question));
    if (remembered !== undefined) {
      question.onOutcome?.(rememberedOutcome(remembered));
      return true;
    }
    const refusal = this.#roomFor(question);
    if (refusal !== null) {
      // Too many questions wait already: refused at once, no dialog, nothing queued.
      question.onOutcome?.({ answeredBy: "nobody" });
      return refusal;
    }

    const approvalId = this.#options.createId?.() ?? crypto.randomUUID();
    const request: ApprovalRequest = {
      approvalId,
      instanceId: question.instanceId,
      chatId: question.chatId,
      title: question.title,
      source: question.source,
      tool: question.tool,
      arguments: question.arguments,
      createdAt: this.#now(),
    };
    if (question.annotations) request.annotations = question.annotations;
    if (question.question) request.question = question.question;
    return new Promise<boolean | string>((resolve) => {
      this.#pending.set(approvalId, { request, question, resolve });
      try {
        this.#options.onRequest(request);
      } catch (error) {
        this.#pending.delete(approvalId);
        throw error;
      }
    });
  }

  /**
   * Applies the person's answer to a waiting request. An answer that covers a card or the
   * conversation also allows the other waiting requests it covers, and is kept in memory.
   *
   * @param approvalId - the id from the request.
   * @param answer - the decision and, for a refusal, an optional reason.
   * @throws {@link ApprovalError} `invalid_answer` for an unknown decision; `unknown_approval`
   *   when no request of that id is waiting; `memory_failed` when the answer was applied but
   *   couldn't be saved with the conversation.
   */
  async answer(approvalId: string, answer: ApprovalAnswer): Promise<void> {
    if (!approvalDecisions.includes(answer.decision)) {
      throw new ApprovalError(
        "invalid_answer",
        `"${String(answer.decision)}" is not an answer; send one of ${approvalDecisions.join(", ")}.`,
      );
    }
    const pending = this.#pending.get(approvalId);
    if (pending === undefined) {
      throw new ApprovalError(
        "unknown_approval",
        `No approval "${approvalId}" is waiting; it was answered or cancelled already.`,
      );
    }
    this.#settle(approvalId, "answered", answer.decision);
    const answeredAt = this.#now();
    pending.question.onOutcome?.({
      answeredBy: "person",
      answer: answer.decision,
      scope: decisionScopes[answer.decision],
      answeredAt,
    });
    if (answer.decision === "refuse") {
      const reason = answer.reason?.trim() ?? "";
      pending.resolve(reason === "" ? false : reason);
      return;
    }
    pending.resolve(true);
    if (answer.decision === "allow-once") return;

    const { question } = pending;
    const record: RememberedApproval = {
      conversationId: question.conversationId ?? NO_CONVERSATION,
      scope: answer.decision === "allow-card" ? "card" : "conversation",
      instanceId: answer.decision === "allow-card" ? question.instanceId : null,
      source: question.source,
      tool: question.tool,
      createdAt: answeredAt,
    };
    this.#memoryFor(question.conversationId).records.push(record);
    // Requests queued behind this one that the answer covers need no dialog any more.
    for (const [otherId, other] of [...this.#pending]) {
      if (sameConversation(other.question, question) && covers(record, other.question)) {
        this.#settle(otherId, "remembered");
        other.question.onOutcome?.(rememberedOutcome(record));
        other.resolve(true);
      }
    }
    if (question.conversationId === null || this.#options.memory === undefined) return;
    try {
      await this.#options.memory.remember(record);
    } catch (error) {
      throw new ApprovalError(
        "memory_failed",
        `The answer was applied, but it couldn't be saved with the conversation (${errorMessage(error)}); it holds until the session ends.`,
      );
    }
  }

  /** The requests still waiting, oldest first (to show them again after the browser reconnects). */
  pending(): ApprovalRequest[] {
    return [...this.#pending.values()].map((pending) => pending.request);
  }

  /**
   * Refuses every waiting request of one card, because the card closed.
   *
   * @param instanceId - the closed card.
   */
  cancelCard(instanceId: string): void {
    for (const [approvalId, pending] of [...this.#pending]) {
      if (pending.question.instanceId !== instanceId) continue;
      this.#settle(approvalId, "cancelled");
      pending.question.onOutcome?.({ answeredBy: "nobody" });
      pending.resolve(CARD_CLOSED_REFUSAL);
    }
  }

  /** Ends the session: every waiting request is refused with {@link SESSION_ENDED_REFUSAL}. */
  close(): void {
    this.#closed = true;
    for (const [approvalId, pending] of [...this.#pending]) {
      this.#settle(approvalId, "cancelled");
      pending.question.onOutcome?.({ answeredBy: "nobody" });
      pending.resolve(SESSION_ENDED_REFUSAL);
    }
  }

  /** Null when one more question of this card may wait; else the refusal to give at once. */
  #roomFor(question: ApprovalQuestion): string | null {
    const perCard = this.#options.maxWaitingPerCard ?? DEFAULT_MAX_WAITING_PER_CARD;
    const perSession = this.#options.maxWaitingPerSession ?? DEFAULT_MAX_WAITING_PER_SESSION;
    if (this.#pending.size >= perSession) return sessionQuestionsWaitingRefusal(perSession);
    let waiting = 0;
    for (const pending of this.#pending.values()) {
      if (pending.question.instanceId === question.instanceId) waiting += 1;
    }
    return waiting >= perCard ? cardQuestionsWaitingRefusal(perCard) : null;
  }

  #settle(approvalId: string, settlement: ApprovalSettlement, decision?: ApprovalDecision): void {
    this.#pending.delete(approvalId);
    try {
      this.#options.onSettle?.(approvalId, settlement, decision);
    } catch (error) {
      this.#warn(
        `Couldn't tell the browser that approval "${approvalId}" ended: ${errorMessage(error)}`,
      );
    }
  }

  #memoryFor(conversationId: string | null): ConversationMemory {
    const key = conversationId ?? NO_CONVERSATION;
    let memory = this.#memory.get(key);
    if (memory === undefined) {
      memory = { records: [], loaded: null };
      this.#memory.set(key, memory);
    }
    return memory;
  }

  /** Reads a conversation's remembered answers once; concurrent asks share the read. */
  async #loadMemory(conversationId: string | null): Promise<ConversationMemory> {
    const memory = this.#memoryFor(conversationId);
    const store = this.#options.memory;
    if (conversationId === null || store === undefined) return memory;
    memory.loaded ??= this.#readMemory(store, conversationId, memory);
    const loading = memory.loaded;
    const succeeded = await loading;
    // Asking the person is the safe fallback; the next ask tries to read again.
    if (!succeeded && memory.loaded === loading) memory.loaded = null;
    return memory;
  }

  async #readMemory(
    store: ApprovalMemory,
    conversationId: string,
    memory: ConversationMemory,
  ): Promise<boolean> {
    try {
      const records = await store.listApprovals(conversationId);
      memory.records.unshift(
        ...records.filter((record) => record.conversationId === conversationId),
      );
      return true;
    } catch (error) {
      this.#warn(
        `Couldn't read the remembered approvals of conversation "${conversationId}" (${errorMessage(error)}); the person is asked instead.`,
      );
      return false;
    }
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  #warn(message: string): void {
    if (this.#options.warn) this.#options.warn(message);
    else console.warn(message);
  }
}

/** What each answer covers, as audited. */
const decisionScopes: Record<ApprovalDecision, "call" | "card" | "conversation"> = {
  "allow-once": "call",
  refuse: "call",
  "allow-card": "card",
  "allow-conversation": "conversation",
};

/** The outcome of a question a remembered answer settled. */
function rememberedOutcome(record: RememberedApproval): ApprovalOutcome {
  return {
    answeredBy: "remembered",
    answer: record.scope === "card" ? "allow-card" : "allow-conversation",
    scope: record.scope,
    answeredAt: record.createdAt,
  };
}

/** True when a remembered answer allows the call without a dialog. */
function covers(record: RememberedApproval, question: ApprovalQuestion): boolean {
  if (record.source !== question.source || record.tool !== question.tool) return false;
  if (record.scope === "conversation") return true;
  return record.instanceId === question.instanceId;
}

function sameConversation(left: ApprovalQuestion, right: ApprovalQuestion): boolean {
  return left.conversationId === right.conversationId;
}
