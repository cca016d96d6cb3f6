import { wireError, type WireError, type WireErrorCode } from "@mcp-chat-host/protocol";

/**
 * The error a request handler throws to fail on the wire: unlike the local error classes (a
 * store's, a source's, a connection's, mapped code by code by `toWireError` in `errors/`), its
 * `code` is already a wire code and it crosses the socket as it is, message included, so the
 * message must be written for the person who reads it. `rpcCode` is set for the answers a card's
 * page receives, so the browser's bridge answers the page with that JSON-RPC code.
 */
export class HostError extends Error {
  override readonly name = "HostError";
  /** True when trying again later may work. */
  readonly retryable: boolean;
  /** For card requests: the JSON-RPC error code the page sees. */
  readonly rpcCode: number | undefined;

  constructor(
    readonly code: WireErrorCode,
    message: string,
    options: { rpcCode?: number; retryable?: boolean } = {},
  ) {
    super(message);
    this.retryable = options.retryable ?? false;
    this.rpcCode = options.rpcCode;
  }

  /** The error as it crosses the socket. */
  toWire(): WireError {
    return wireError(
      this.code,
      this.message,
      this.rpcCode === undefined
        ? { retryable: this.retryable }
        : { retryable: this.retryable, rpcCode: this.rpcCode },
    );
  }
}
