// Splits a stdio server's output into JSON-RPC messages, one per line, as the SDK's ReadBuffer
// does, with one difference: a reply whose id is null or missing is passed on as it is. The SDK's
// schema refuses `id: null`, so the standard parse-error reply
// (`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}}`) would be dropped as a bad line and
// the call it answers would wait for its whole deadline; passed on, the reply-id guard sees a
// reply that answers no request and ends the session as desynchronised at once.
import {
  parseJSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
} from "@modelcontextprotocol/client";

/** Buffers a byte stream and reads newline-delimited JSON-RPC messages from it. */
export class JsonLineReader {
  private buffer: Buffer | undefined;
  private readonly maxBufferSize: number;

  /** @param maxBufferSize - the largest unread text accepted, in bytes (the SDK's default). */
  constructor(maxBufferSize: number = STDIO_DEFAULT_MAX_BUFFER_SIZE) {
    this.maxBufferSize = maxBufferSize;
  }

  /**
   * Adds a chunk of output.
   *
   * @throws Error when the unread text would pass the size limit (the buffer is then cleared).
   */
  append(chunk: Buffer): void {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`The MCP server sent a message larger than ${this.maxBufferSize} bytes.`);
    }
    this.buffer = this.buffer === undefined ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /**
   * Reads the next complete message. Lines that are not JSON are skipped, as the SDK does (a
   * server may log to stdout).
   *
   * @returns the message, or null when no complete line is buffered.
   * @throws Error for a JSON line that is not a JSON-RPC message (that line is consumed).
   */
  readMessage(): JSONRPCMessage | null {
    while (this.buffer !== undefined) {
      const index = this.buffer.indexOf("\n");
      if (index === -1) return null;
      const line = this.buffer.toString("utf8", 0, index).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(index + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      // The guard's check needs only that it is a reply; the SDK never sees it.
      if (isReplyWithoutId(value)) return value as JSONRPCMessage;
      return parseJSONRPCMessage(value);
    }
    return null;
  }

  /** Drops everything buffered. */
  clear(): void {
    this.buffer = undefined;
  }
}

/**
 * Whether a parsed line is a JSON-RPC reply (a `result` or an `error`, no `method`) whose `id`
 * is null or missing.
 *
 * @param value - a parsed JSON value.
 * @returns true for such a reply.
 */
function isReplyWithoutId(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if ("method" in record || record["jsonrpc"] !== "2.0") return false;
  if (!("result" in record) && !("error" in record)) return false;
  return record["id"] === null || record["id"] === undefined;
}
