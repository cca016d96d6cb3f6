// The questions an app's page call puts to the person, their answers, and the refusals a call
// gets when nobody answers: what the approval broker and its callers share.
import {
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

/** Options of the approval broker (`ApprovalBroker`). */
export interface ApprovalBrokerOptions {
  /** Sends a dialog request (`approval:request`) to the session's browser. Several may wait at once. */
  readonly onRequest: (request: ApprovalRequest) => void;
  /**
   * A waiting request ended (answered, covered by a remembered answer, or cancelled): send
   * `approval:settled`. `decision` is the person's answer when `answered`.
   */
  readonly onSettle?: (
    approvalId: string,
    settlement: ApprovalSettlement,
    decision?: ApprovalDecision,
  ) => void;
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
