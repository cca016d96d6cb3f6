import {
  checkElicitationAnswer,
  elicitationFields,
  errorMessage,
  type ElicitationField,
  type ElicitationRequest,
  type elicitationActions,
  type elicitationOutcomes,
} from "@mcp-chat-host/protocol";
import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/client";
import { HostError } from "../host-error";
import {
  answerNotSent,
  cannotShowQuestion,
  notWebAddress,
  tooManyQuestions,
  unansweredQuestion,
  unknownQuestion,
} from "./elicitation-sentences";

/** Most questions that wait at once in one session; more are declined without a dialog. */
export const MAX_WAITING_QUESTIONS = 10;

/** How a question ended. */
export type ElicitationOutcome = (typeof elicitationOutcomes)[number];

/** The person's answer, as `elicitation:answer` carries it. */
export interface ElicitationAnswer {
  action: (typeof elicitationActions)[number];
  content?: Record<string, unknown> | undefined;
}

/** A server's question, as the routing hands it over. */
export interface ElicitationQuestion {
  /** The server that asks (its source key). */
  server: string;
  /** The question as the server sent it. */
  params: ElicitRequestParams;
  /** The chat whose call led to it, when known. */
  chatId?: string | undefined;
}

/** Where a broker's questions go, and its clock. */
export interface ElicitationBrokerOptions {
  /** Shows the question in every tab of the session. */
  onRequest(request: ElicitationRequest): void;
  /** Closes the question's dialog in every tab. */
  onSettle(elicitationId: string, outcome: ElicitationOutcome): void;
  /** Tells the person something happened (a notice). */
  notify(message: string): void;
  /** Logs a refusal with its reason. */
  warn(details: Record<string, unknown>, message: string): void;
  /** How long a question waits before it is cancelled, in ms. */
  timeoutMs: number;
  now(): number;
  createId?: () => string;
}

interface PendingQuestion {
  readonly request: ElicitationRequest;
  readonly fields: ElicitationField[] | null;
  readonly finish: (result: ElicitResult, outcome: ElicitationOutcome) => void;
}

/**
 * One session's questions from MCP servers (`elicitation/create`): `ask` shows a question in
 * the session's tabs and resolves with what the server is answered; `answer` applies the
 * person's answer, checked against the form the server asked for. A question that nobody
 * answers in time is cancelled (and the person told); one whose call ended is withdrawn.
 */
export class ElicitationBroker {
  readonly #options: ElicitationBrokerOptions;
  readonly #pending = new Map<string, PendingQuestion>();
  #closed = false;

  /** @param options - where questions go, and the timeout. */
  constructor(options: ElicitationBrokerOptions) {
    this.#options = options;
  }

  /**
   * Puts a server's question to the person.
   *
   * @param question - the server, its question and the chat.
   * @param signal - aborted when the call that led to it ends or the server withdraws it.
   * @returns the answer for the server: `accept` (with the checked `content` for a form),
   *   `decline`, or `cancel` (timed out, withdrawn, or the session ended).
   */
  ask(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitResult> {
    const { server, params } = question;
    if (this.#closed || signal.aborted) return Promise.resolve({ action: "cancel" });
    const url = params.mode === "url" ? params.url : undefined;
    const requestedSchema = params.mode === "url" ? undefined : params.requestedSchema;
    const fields = url === undefined ? elicitationFields(requestedSchema) : null;
    if (url === undefined && fields === null) {
      // The SDK checked the shape already; this is a schema the form cannot render.
      this.#options.warn({ server }, "declined a question whose form cannot be shown");
      this.#options.notify(cannotShowQuestion(server));
      return Promise.resolve({ action: "decline" });
    }
    if (url !== undefined && !isWebAddress(url)) {
      this.#options.warn({ server }, "declined a question whose page is not an http(s) address");
      this.#options.notify(notWebAddress(server));
      return Promise.resolve({ action: "decline" });
    }
    if (this.#pending.size >= MAX_WAITING_QUESTIONS) {
      this.#options.warn({ server }, tooManyQuestions(MAX_WAITING_QUESTIONS));
      return Promise.resolve({ action: "decline" });
    }
    const elicitationId = this.#options.createId?.() ?? crypto.randomUUID();
    const request: ElicitationRequest = {
      elicitationId,
      server,
      mode: url === undefined ? "form" : "url",
      message: params.message,
      expiresAt: this.#options.now() + this.#options.timeoutMs,
      ...(question.chatId === undefined ? {} : { chatId: question.chatId }),
      ...(url === undefined ? { requestedSchema } : { url }),
    };
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(() => {
        finish({ action: "cancel" }, "timed-out");
        this.#options.notify(unansweredQuestion(server));
      }, this.#options.timeoutMs);
      const onAbort = (): void => finish({ action: "cancel" }, "withdrawn");
      const finish = (result: ElicitResult, outcome: ElicitationOutcome): void => {
        if (!this.#pending.delete(elicitationId)) return;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(result);
        try {
          this.#options.onSettle(elicitationId, outcome);
        } catch (error) {
          this.#options.warn(
            { server, elicitationId },
            `couldn't tell the tabs that a question ended: ${errorMessage(error)}`,
          );
        }
      };
      this.#pending.set(elicitationId, { request, fields, finish });
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        this.#options.onRequest(request);
      } catch (error) {
        // Nobody can see the question, so nobody can answer it.
        this.#options.warn(
          { server, elicitationId },
          `couldn't show a question to the person: ${errorMessage(error)}`,
        );
        finish({ action: "cancel" }, "withdrawn");
      }
    });
  }

  /**
   * Applies the person's answer. An `accept` of a form is checked against the form first; a
   * wrong one is refused and the question keeps waiting.
   *
   * @throws {HostError} `not_found` when no such question waits; `bad_request` with one
   *   sentence per wrong field when the form's values are wrong.
   */
  answer(elicitationId: string, answer: ElicitationAnswer): void {
    const pending = this.#pending.get(elicitationId);
    if (pending === undefined) throw new HostError("not_found", unknownQuestion());
    if (answer.action !== "accept") {
      pending.finish({ action: answer.action }, "answered");
      return;
    }
    if (pending.fields === null) {
      // URL mode: accepting means the person opened the page; there are no values.
      pending.finish({ action: "accept" }, "answered");
      return;
    }
    const content = answer.content ?? {};
    const problems = checkElicitationAnswer(pending.fields, content);
    if (problems.length > 0) {
      throw new HostError("bad_request", answerNotSent(problems.map((problem) => problem.message)));
    }
    pending.finish({ action: "accept", content: content as ElicitContent }, "answered");
  }

  /** The questions still waiting, oldest first (shown again to a tab that says hello). */
  pending(): ElicitationRequest[] {
    return [...this.#pending.values()].map((pending) => pending.request);
  }

  /** Ends the session: every waiting question is withdrawn (the server is answered `cancel`). */
  close(): void {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) {
      pending.finish({ action: "cancel" }, "withdrawn");
    }
  }
}

type ElicitContent = NonNullable<ElicitResult["content"]>;

/** Whether a URL is one the person may be offered to open: http or https, nothing else. */
function isWebAddress(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === "https:" || protocol === "http:";
}
