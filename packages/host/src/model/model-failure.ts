// Why a turn failed, in words a person can act on: one or two plain sentences saying what
// happened and what to do, never raw JSON, a stack, a URL with a key or a key fragment. The
// kinds follow the HTTP status (or the status an in-stream error type stands for).
import { InvalidResponseDataError, JSONParseError, NoOutputGeneratedError } from "ai";
import { TypeValidationError } from "ai";
import { readProviderError, retryAfterMs, scrubSecrets } from "./provider-error-facts";
import type { ProviderErrorFacts } from "./provider-error-facts";
import type { TurnFailure, TurnFailureKind } from "./turn-events";

/** The model sent nothing for too long; the runner closed the request. */
export class ModelStallError extends Error {
  override readonly name = "ModelStallError";
  readonly code = "stalled";

  constructor(readonly timeoutMs: number) {
    super(`The model sent nothing for ${timeoutMs} ms.`);
  }
}

/** The model's stream ended without its finish event (the connection closed early). */
export class ModelCutOffError extends Error {
  override readonly name = "ModelCutOffError";
  readonly code = "cut-off";

  constructor() {
    super("The model's stream ended without its finish event.");
  }
}

/** What {@link describeFailure} needs besides the error. */
export interface FailureContext {
  /** The model's provider id (`anthropic.messages`, `openai.responses`, `openai-compatible.chat`). */
  provider: string;
  /** The current time (ms since the epoch), for "try again in ...". */
  now: number;
  /** The request id of the turn's last model call, when the error does not carry one. */
  requestId?: string;
}

/**
 * Describes a failure for the person who sees the reply, and for the log (provider, status,
 * request id). Never throws.
 *
 * @returns the failure; `message` is safe to show.
 */
export function describeFailure(error: unknown, context: FailureContext): TurnFailure {
  const facts = readProviderError(error);
  const { kind, message, retryable, retryAt } = explain(error, facts, context);
  const failure: TurnFailure = {
    kind,
    message: scrubSecrets(message),
    retryable,
    provider: context.provider,
  };
  if (facts.status !== undefined) failure.status = facts.status;
  const requestId = facts.requestId ?? context.requestId;
  if (requestId !== undefined) failure.requestId = requestId;
  if (retryAt !== undefined) failure.retryAt = retryAt;
  return failure;
}

/**
 * The failure of the host itself (a listener that threw while relaying the reply).
 *
 * @returns a host failure with a generic message; the error goes to the log only.
 */
export function hostFailure(message?: string): TurnFailure {
  return {
    kind: "host",
    message:
      message ??
      "The host failed while relaying the reply. Try again; if it keeps happening, check the server's log.",
    retryable: message === undefined,
  };
}

/** Whether a failure is one the runner waits out by itself (429, 503, 529, overloaded). */
export function isTransientOverload(facts: ProviderErrorFacts): boolean {
  if (isQuota(facts)) return false;
  return facts.status === 429 || facts.status === 503 || facts.status === 529;
}

interface Explanation {
  kind: TurnFailureKind;
  message: string;
  retryable: boolean;
  retryAt?: number;
}

function explain(error: unknown, facts: ProviderErrorFacts, context: FailureContext): Explanation {
  const provider = providerName(context.provider);
  if (error instanceof ModelStallError) {
    return {
      kind: "stalled",
      message: `The model stopped answering for ${duration(error.timeoutMs)}; try again.`,
      retryable: true,
    };
  }
  if (
    error instanceof ModelCutOffError ||
    NoOutputGeneratedError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  ) {
    return {
      kind: "cut-off",
      message: `${provider.subject} ended the reply before it was finished; try again.`,
      retryable: true,
    };
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    facts.malformed
  ) {
    return {
      kind: "malformed",
      message: `${provider.subject} sent a response this host could not read; try again.`,
      retryable: true,
    };
  }
  if (facts.transport === "connect") {
    // Not the origin: it is an internal address the person cannot use (the log has it).
    return {
      kind: "network",
      message: `The host could not connect to ${provider.object}. Check the network and the base URL, then try again.`,
      retryable: true,
    };
  }
  if (facts.transport === "lost") {
    return {
      kind: "network",
      message: `The connection to ${provider.object} broke before the reply was finished; try again.`,
      retryable: true,
    };
  }
  if (facts.status !== undefined) return explainStatus(facts.status, facts, context, provider);
  return {
    kind: "provider-error",
    message:
      "The model failed with an unexpected error. Try again; if it keeps happening, check the server's log.",
    retryable: true,
  };
}

function explainStatus(
  status: number,
  facts: ProviderErrorFacts,
  context: FailureContext,
  provider: ProviderName,
): Explanation {
  const { subject, keyVariable } = provider;
  const key = keyVariable ?? "the provider's API key";
  // An in-stream error came with HTTP 200: its status is only what its type stands for.
  const http = facts.statusInferred === true ? "" : ` (HTTP ${status})`;
  if (status === 401) {
    return {
      kind: "auth",
      message: `${subject} did not accept the API key${http}. Check ${key} in the server's environment.`,
      retryable: false,
    };
  }
  if (status === 403) {
    return {
      kind: "auth",
      message: `${subject} refused access with this API key${http}. Check that ${key} may use this model.`,
      retryable: false,
    };
  }
  if (isQuota(facts)) {
    return {
      kind: "auth",
      message: `${subject} says the account is out of credit or over its quota. Add credit, or set another key in ${key}.`,
      retryable: false,
    };
  }
  if (status === 429 || status === 503 || status === 529) {
    const wait = retryAfterMs(facts.headers, context.now);
    const when = wait === undefined ? "in a minute" : `in ${duration(wait)}`;
    const what = status === 429 ? "is rate limiting this host" : "is overloaded right now";
    return {
      kind: status === 429 ? "rate-limited" : "overloaded",
      message: `${subject} ${what}. Try again ${when}.`,
      retryable: true,
      ...(wait === undefined ? {} : { retryAt: context.now + wait }),
    };
  }
  if (status === 404) {
    return {
      kind: "refused",
      message: `${subject} does not know this model${http}. Check the model id in MODEL and the base URL.`,
      retryable: false,
    };
  }
  if (status >= 500 || status === 408) {
    return {
      kind: "provider-error",
      message: `${subject} had an internal error${http}. Try again in a moment.`,
      retryable: true,
    };
  }
  const detail = facts.detail === undefined ? "" : `: ${facts.detail}`;
  return {
    kind: "refused",
    message: `${subject} refused the request${http}${detail}. Sending it again unchanged will not help.`,
    retryable: false,
  };
}

/**
 * Anthropic answers an account out of credit with HTTP 400 `invalid_request_error` ("Your credit
 * balance is too low to access the Anthropic API…"): only its message tells it from a bad request.
 */
const OUT_OF_CREDIT_DETAIL = /\bcredit balance is too low\b/i;

function isQuota(facts: ProviderErrorFacts): boolean {
  return (
    facts.codes.some(
      (code) => code === "insufficient_quota" || code === "billing_error" || code.includes("quota"),
    ) ||
    (facts.detail !== undefined && OUT_OF_CREDIT_DETAIL.test(facts.detail))
  );
}

interface ProviderName {
  /** The provider at the start of a sentence ("Anthropic", "The model server"). */
  subject: string;
  /** The provider inside a sentence ("Anthropic", "the model server"). */
  object: string;
  /** The environment variable that holds the key. */
  keyVariable?: string;
}

function providerName(provider: string): ProviderName {
  if (provider.startsWith("anthropic")) {
    return { subject: "Anthropic", object: "Anthropic", keyVariable: "ANTHROPIC_API_KEY" };
  }
  if (provider.startsWith("openai-compatible")) {
    return {
      subject: "The model server",
      object: "the model server",
      keyVariable: "OPENAI_COMPATIBLE_API_KEY",
    };
  }
  if (provider.startsWith("openai")) {
    return { subject: "OpenAI", object: "OpenAI", keyVariable: "OPENAI_API_KEY" };
  }
  return { subject: "The model provider", object: "the model provider" };
}

/**
 * A wait in words: "60 s" under two minutes, then "N minutes", then "N hours".
 *
 * @returns the text.
 */
export function duration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}
