import { INTERNAL_ERROR_MESSAGE } from "../errors/internal-error";
import { localErrorWireRules } from "../errors/to-wire-error";
import { PageRequestFailure } from "../errors/page-request-failure";
import { HostError } from "../host-error";
import { isSourceError } from "../sources/source-error";

/**
 * What to tell the person when a source failed under a request (the server exited, stopped
 * answering, or could not be reached). A timed-out connection is closed by the connection layer
 * with the bare text "MCP connection ended: timeout", so that case gets a sentence of its own;
 * the other source errors already say what happened and what to do. Any other error is a bug
 * whose text stays in the log: the person reads the internal sentence. A model's tool call reads
 * this sentence (`turns/tool-execution.ts`); a page's request reads {@link pageCallFailure}'s.
 *
 * @param error - what the source threw.
 * @param sourceKey - the source's key, named in the message.
 * @param sourceClosed - whether the source's connection has closed since.
 * @returns the message.
 */
export function sourceFailureMessage(
  error: unknown,
  sourceKey: string,
  sourceClosed: boolean,
): string {
  if (isTimeoutThatClosed(error, sourceClosed)) return timeoutMessage(sourceKey);
  return isSourceError(error) ? error.message : INTERNAL_ERROR_MESSAGE;
}

function isTimeoutThatClosed(error: unknown, sourceClosed: boolean): boolean {
  return isSourceError(error) && error.code === "timeout" && sourceClosed;
}

function timeoutMessage(sourceKey: string): string {
  return `${sourceKey} did not answer in time, so its connection was closed. Try again to reconnect.`;
}

/**
 * The error a card's page gets when a request to its source failed. The wire mapping decides it
 * (`toWireError`: a source's `timeout`, `closed`, `unavailable` with its sentence and
 * retryability, anything unexpected `internal`), with the page's JSON-RPC code; only a timeout
 * that closed the connection gets {@link sourceFailureMessage}'s sentence of its own.
 *
 * @param error - what the source threw.
 * @param sourceKey - the card's source.
 * @param sourceClosed - whether the source's connection has closed since.
 * @param rpcCode - the JSON-RPC code the page's bridge answers with.
 * @returns the error to throw to the page.
 */
export function pageCallFailure(
  error: unknown,
  sourceKey: string,
  sourceClosed: boolean,
  rpcCode: number,
): Error {
  if (!isTimeoutThatClosed(error, sourceClosed)) return new PageRequestFailure(error, rpcCode);
  // The same code and retryability as every other source timeout on the wire.
  const wire = localErrorWireRules.source.timeout;
  return new HostError(wire.code, timeoutMessage(sourceKey), {
    rpcCode,
    retryable: wire.retryable === true,
  });
}
