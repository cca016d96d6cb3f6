import type { ClientOptions, Transport } from "@modelcontextprotocol/client";
import type { SourceKind } from "./source";

/** A transport ready for a client, and what to do when the client is done with it. */
export interface OpenedTransport {
  /** The client's end of the connection. */
  transport: Transport;
  /** Runs before the client closes (ends an HTTP session, closes an in-process server). */
  shutdown?: () => Promise<void>;
}

/** Options of `ClientSource` (of `./client-source`). */
export interface ClientSourceOptions {
  /** The source's key. */
  key: string;
  /** The source's kind. */
  kind: SourceKind;
  /** Opens the transport. Called on first use, and again after a failed connection attempt. */
  openTransport: () => Promise<OpenedTransport>;
  /** Seconds to wait for each answer (and for the handshake) unless a request says otherwise. Default 60. */
  timeout?: number;
  /**
   * How long a tool list stays fresh, in ms, when the server gives no `ttlMs`.
   * Default: until the server says the list changed.
   */
  toolsTtlMs?: number;
  /** The clock used for the tool list's freshness (tests inject one). */
  now?: () => number;
  /** Protocol version negotiation; `auto` tries `server/discover` before `initialize`. Default: the SDK's (legacy). */
  versionNegotiation?: ClientOptions["versionNegotiation"];
  /** Called with errors the connection reports outside any request (malformed messages, dropped notifications). */
  onError?: (error: Error) => void;
}
