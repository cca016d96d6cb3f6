// The one place where a local error becomes the error the browser receives. Local codes are not
// wire codes, even where they are spelled alike (a store's `not_found`, a connection's `closed`):
// each class has a table with one entry per code, and anything not named here is `internal`.
import {
  McpConfigError,
  McpConnectionError,
  McpSharedConnectionError,
  ToolRegistrationError,
  mcpConnectionErrorCodes,
  type McpConnectionErrorCode,
  type McpSharedConnectionErrorCode,
} from "@mcp-chat-host/connection";
import { wireError, type WireError, type WireErrorCode } from "@mcp-chat-host/protocol";
import { SandboxConfigurationError } from "@mcp-chat-host/sandbox";
import { ZodError } from "zod";
import { ApprovalError, type ApprovalErrorCode } from "../gate/approval-types";
import { PolicyConfigError } from "../gate/policies";
import { HostError } from "../host-error";
import { ModelSelectionError } from "../model/model-selection";
import { HttpLayerError } from "./http-layer-error";
import { connectionSourceCodes } from "../sources/connection-error";
import { SourceError, type SourceErrorCode } from "../sources/source-error";
import { StoreError, type StoreErrorCode } from "../store/store-error";
import { internalWireError } from "./internal-error";
import { PageRequestFailure } from "./page-request-failure";

/** How the errors of one local code cross the socket. */
export interface WireRule {
  /** The wire code the browser switches on. */
  readonly code: WireErrorCode;
  /**
   * Whether sending the same request again later may work. `"as-thrown"`: the error's own
   * `retryable` (the store decides it per failure: a busy database is, a full disk is not).
   */
  readonly retryable: boolean | "as-thrown";
}

const rule = (code: WireErrorCode, retryable: WireRule["retryable"]): WireRule => ({
  code,
  retryable,
});

/** {@link StoreError}: the record is missing, the input is wrong, or the storage failed. */
const storeRules: { readonly [Code in StoreErrorCode]: WireRule } = {
  not_found: rule("not_found", false),
  invalid_import: rule("bad_request", false),
  invalid_record: rule("bad_request", false),
  // Nothing was stored, so nothing was acknowledged: `storage`, whatever the reason.
  storage_full: rule("storage", "as-thrown"),
  storage_busy: rule("storage", "as-thrown"),
  storage_failed: rule("storage", "as-thrown"),
  invalid_spec: rule("storage", "as-thrown"),
  conflict: rule("storage", "as-thrown"),
  closed: rule("storage", "as-thrown"),
};

/**
 * {@link SourceError}: the source's server is away or slow (the host opens a new connection to a
 * source that closed, so trying again may work), or it answered in a way that fails again.
 */
const sourceRules: { readonly [Code in SourceErrorCode]: WireRule } = {
  unavailable: rule("unavailable", true),
  timeout: rule("timeout", true),
  closed: rule("closed", true),
  busy: rule("busy", true),
  refused: rule("forbidden", false),
  invalid_request: rule("bad_request", false),
  protocol: rule("unavailable", false),
  cancelled: rule("unavailable", false),
  invalid_options: rule("unavailable", false),
  invalid_view_uri: rule("unavailable", false),
  invalid_view: rule("unavailable", false),
};

/**
 * {@link McpConnectionError} and its subclasses: the rule of the source code a connection source
 * turns the error into (`connectionSourceCodes` in `sources/connection-error.ts`), so a connection
 * error crosses as the same wire code whether it reaches the mapping as it is or as a
 * `SourceError`. A connection that ended is replaced by a new one on the next request
 * (retryable); a refusal of the allowlist or the owner, a wrong argument and an error the server
 * answered with fail the same way again.
 */
const connectionRules = Object.fromEntries(
  mcpConnectionErrorCodes.map((code) => [code, sourceRules[connectionSourceCodes[code]]]),
) as { readonly [Code in McpConnectionErrorCode]: WireRule };

/** {@link McpSharedConnectionError}: the caller must load the tools again, not repeat the call. */
const sharedConnectionRules: { readonly [Code in McpSharedConnectionErrorCode]: WireRule } = {
  stale: rule("closed", false),
  closed: rule("closed", false),
  unavailable: rule("unavailable", false),
};

/**
 * {@link ApprovalError}. The browser drops a question from its queue on `not_found`; after
 * `memory_failed` the answer was applied (only keeping it failed, and the message says so), so
 * the question must leave the queue too.
 */
const approvalRules: { readonly [Code in ApprovalErrorCode]: WireRule } = {
  unknown_approval: rule("not_found", false),
  memory_failed: rule("not_found", false),
  invalid_answer: rule("bad_request", false),
};

/**
 * The tables of {@link toWireError}, one entry per code of each local error class (the types make
 * them exhaustive: a new code does not compile until it has an entry).
 */
export const localErrorWireRules = {
  store: storeRules,
  source: sourceRules,
  connection: connectionRules,
  sharedConnection: sharedConnectionRules,
  approval: approvalRules,
} as const;

/**
 * Local errors that are the operator's or the program's to fix (configuration, a wrong option,
 * an unknown model spec), or a payload-shaped error from something the host read (a zod error
 * thrown inside a handler is about data the server holds, not about what the browser sent; the
 * browser's payloads are checked before a handler runs). They become `internal`: the person
 * cannot act on them, and the log has the message.
 */
export const internalErrorClasses = [
  HttpLayerError,
  McpConfigError,
  ModelSelectionError,
  PolicyConfigError,
  SandboxConfigurationError,
  ToolRegistrationError,
  ZodError,
] as const;

/** How {@link toWireError} is called. */
export interface ToWireErrorOptions {
  /** For a card page's request: the JSON-RPC code the page's bridge answers with. */
  readonly rpcCode?: number | undefined;
}

function byRule(
  error: Error & { readonly retryable?: boolean },
  wireRule: WireRule | undefined,
): WireError {
  // A code outside the class's own list (a cast somewhere) has no rule: unexpected, so internal.
  if (wireRule === undefined) return internalWireError();
  const retryable =
    wireRule.retryable === "as-thrown" ? error.retryable === true : wireRule.retryable;
  return wireError(wireRule.code, error.message, { retryable });
}

function mapped(error: unknown): WireError {
  if (error instanceof HostError) return error.toWire();
  if (error instanceof StoreError) return byRule(error, storeRules[error.code]);
  if (error instanceof SourceError) return byRule(error, sourceRules[error.code]);
  if (error instanceof McpConnectionError) return byRule(error, connectionRules[error.code]);
  if (error instanceof McpSharedConnectionError)
    return byRule(error, sharedConnectionRules[error.code]);
  if (error instanceof ApprovalError) return byRule(error, approvalRules[error.code]);
  // internalErrorClasses, and everything nobody named.
  return internalWireError();
}

/**
 * Turns anything a request's handler threw into the {@link WireError} the browser receives. A
 * {@link HostError} crosses as it is (code, message, `retryable`, `rpcCode`); the local errors of
 * the store, the sources, the MCP connections and the approval broker are mapped code by code
 * ({@link localErrorWireRules}), keeping their message, which is written for the person. Anything
 * else, including an object that only looks like a wire error, becomes `internal` with a generic
 * message, never a local message or a stack (the caller logs it: `server/validated-handler.ts`).
 * A {@link PageRequestFailure} is mapped by its cause and carries its `rpcCode`.
 *
 * @param error - what was thrown or rejected.
 * @param options - the page's JSON-RPC code, when the error answers a card page's request.
 * @returns the error to send.
 */
export function toWireError(error: unknown, options: ToWireErrorOptions = {}): WireError {
  if (error instanceof PageRequestFailure)
    return toWireError(error.cause, { rpcCode: options.rpcCode ?? error.rpcCode });
  const wire = mapped(error);
  return options.rpcCode === undefined ? wire : { ...wire, rpcCode: options.rpcCode };
}
