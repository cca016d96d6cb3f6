import {
  approvalDecisions,
  type ApprovalDecision,
  type ApprovalRequest,
  type ToolAnnotations,
} from "@mcp-chat-host/protocol";

/** The refusal every waiting call gets when the session ends before the person answers. */
export const SESSION_ENDED_REFUSAL = "The person did not answer; the session ended.";

/** The refusal a waiting call gets when its card closes before the person answers. */
export const CARD_CLOSED_REFUSAL = "The person did not answer; the card was closed.";

/** How many questions of one card may wait for the person at once, unless told otherwise. */
export const DEFAULT_MAX_WAITING_PER_CARD = 3;

/** How many questions of one session (every card and pane) may wait at once, unless told otherwise. */
export const DEFAULT_MAX_WAITING_PER_SESSION = 10;

/**
 * The refusal a card's call gets, at once and without a dialog, while `limit` of its questions
 * already wait for the person.
 */
export function cardQuestionsWaitingRefusal(limit: number): string {
  return `The person hasn't answered this app's earlier questions yet (${limit} are waiting), so this call was refused; ask again after they answer.`;
}

/**
 * The refusal a call gets, at once and without a dialog, while `limit` questions of the session
 * already wait for the person.
 */
export function sessionQuestionsWaitingRefusal(limit: number): string {
  return `The person has ${limit} questions from apps waiting already, so this call was refused; ask again after they answer.`;
}

/** What `call.ask()` passes to the broker: the call and where it comes from. */
export interface ApprovalQuestion {
  /** The conversation the card lives in; null for a pane (answers then last for the session). */
  readonly conversationId: string | null;
  /** The card's chat, shown with the dialog; null for a pane. */
  readonly chatId: string | null;
  readonly instanceId: string;
  readonly source: string;
  readonly tool: string;
  readonly title: string;
  readonly arguments: Record<string, unknown>;
  readonly annotations: ToolAnnotations | null | undefined;
  /** A sentence from the policy, shown above the details. */
  readonly question?: string | null | undefined;
  /** Told how the question was settled (for the audit), once, before `ask` resolves. */
  readonly onOutcome?: ((outcome: ApprovalOutcome) => void) | undefined;
}

/** How one question was settled: by the person now, by an answer remembered, or by nobody. */
export interface ApprovalOutcome {
  readonly answeredBy: "person" | "remembered" | "nobody";
  /** The answer (for `remembered`, the remembered one); absent for `nobody`. */
  readonly answer?: ApprovalDecision;
  /** What the answer covers: this call, the card's calls of the tool, or the conversation's. */
  readonly scope?: "call" | "card" | "conversation";
  /** When the answer was given (ms since the epoch). */
  readonly answeredAt?: number;
}

/** The person's answer, as the browser sends it. */
export interface ApprovalAnswer {
  readonly decision: ApprovalDecision;
  /** For `refuse`: the text the page sees; empty or missing gives the default refusal. */
  readonly reason?: string | undefined;
}

/** An answer kept with the conversation, so later calls skip the dialog. */
export interface RememberedApproval {
  readonly conversationId: string;
  /** `card`: the same card and tool; `conversation`: the same source and tool. */
  readonly scope: "card" | "conversation";
  /** The card, for the card scope; null for the conversation scope. */
  readonly instanceId: string | null;
  readonly source: string;
  readonly tool: string;
  /** When the person answered, in ms since the epoch. */
  readonly createdAt: number;
}

/** Where remembered answers are kept; the store implements it. Either method may be async. */
export interface ApprovalMemory {
  /** Every remembered answer of a conversation. */
  listApprovals(
    conversationId: string,
  ): readonly RememberedApproval[] | Promise<readonly RememberedApproval[]>;
  /** Keeps one answer; must be committed when it resolves. */
  remember(record: RememberedApproval): void | Promise<void>;
}

/** How a waiting request ended, so the browser can close its dialog. */
export type ApprovalSettlement = "answered" | "remembered" | "cancelled";

/** Options of {@link ApprovalBroker}. */
export interface ApprovalBrokerOptions {
  /** Sends a dialog request (`approval:request`) to the session's browser. Several may wait at once. */
  readonly onRequest: (request: ApprovalRequest) => void;
  /** A waiting request ended (answered, covered by a remembered answer, or cancelled): send `approval:settled`. */
  readonly onSettle?: (approvalId: string, settlement: ApprovalSettlement) => void;
  /** Remembered answers; without it they last for the session only. */
  readonly memory?: ApprovalMemory;
  /** Receives problems that don't stop a call (memory that can't be read). */
  readonly warn?: (message: string) => void;
  /** Makes approval ids; random UUIDs by default. */
  readonly createId?: () => string;
  /** The clock for `createdAt` of requests and remembered answers; `Date.now` by default. */
  readonly now?: () => number;
  /**
   * At most this many questions of one card wait at once; a further ask is refused at once with
   * {@link cardQuestionsWaitingRefusal}. Default {@link DEFAULT_MAX_WAITING_PER_CARD}.
   */
  readonly maxWaitingPerCard?: number;
  /**
   * At most this many questions of the session wait at once; a further ask is refused at once
   * with {@link sessionQuestionsWaitingRefusal}. Default {@link DEFAULT_MAX_WAITING_PER_SESSION}.
   */
  readonly maxWaitingPerSession?: number;
}

/** Stable codes of {@link ApprovalError}. */
export type ApprovalErrorCode = "unknown_approval" | "invalid_answer" | "memory_failed";

/** An approval answer that could not be applied or kept. */
export class ApprovalError extends Error {
  override readonly name = "ApprovalError";
  /** Stable code. */
  readonly code: ApprovalErrorCode;

  /**
   * @param code - the stable code.
   * @param message - what happened and what to do next.
   */
  constructor(code: ApprovalErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

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
    this.#settle(approvalId, "answered");
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
        `The answer was applied, but it couldn't be saved with the conversation (${errorText(error)}); it holds until the session ends.`,
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

  #settle(approvalId: string, settlement: ApprovalSettlement): void {
    this.#pending.delete(approvalId);
    try {
      this.#options.onSettle?.(approvalId, settlement);
    } catch (error) {
      this.#warn(
        `Couldn't tell the browser that approval "${approvalId}" ended: ${errorText(error)}`,
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
        `Couldn't read the remembered approvals of conversation "${conversationId}" (${errorText(error)}); the person is asked instead.`,
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
