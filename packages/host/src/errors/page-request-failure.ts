import { errorMessage } from "@mcp-chat-host/protocol";

/**
 * A failure under a request of a card's page: what was thrown, and the JSON-RPC code the page's
 * bridge answers with. It decides nothing about the wire: `toWireError` maps its `cause` like any
 * other error (a local error by its table, anything else `internal`) and adds the `rpcCode`, so a
 * page learns its code without a local message slipping past the mapping. Its own message is the
 * cause's, for the server log only.
 */
export class PageRequestFailure extends Error {
  override readonly name = "PageRequestFailure";

  /**
   * @param cause - what the request failed with.
   * @param rpcCode - the JSON-RPC code the page receives.
   */
  constructor(
    cause: unknown,
    readonly rpcCode: number,
  ) {
    super(errorMessage(cause), { cause });
  }
}
