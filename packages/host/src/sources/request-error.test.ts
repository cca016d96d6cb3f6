import { McpClosedError, McpServerError, McpTimeoutError } from "@mcp-chat-host/connection";
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { toWireError } from "../errors/to-wire-error";
import { INTERNAL_ERROR_MESSAGE } from "../errors/internal-error";
import { connectionFailure } from "./connection-error";
import { requestFailure } from "./request-error";
import { SourceError } from "./source-error";

describe("requestFailure", () => {
  it("maps the SDK's failures by code, in the words of the source", () => {
    const timeout = requestFailure(
      new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"),
      "weather",
      "request",
    );
    expect(timeout).toMatchObject({
      code: "timeout",
      message: "weather did not answer in time; try again, or give the source a longer timeout.",
    });
    const closed = requestFailure(
      new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"),
      "weather",
      "request",
    );
    expect(closed).toMatchObject({ code: "closed" });
    const answered = requestFailure(
      new ProtocolError(-32602, "no such tool"),
      "weather",
      "request",
    );
    expect(answered).toBeInstanceOf(SourceError);
    expect(answered).toMatchObject({ code: "protocol", rpcCode: -32602 });
  });

  it("sends one cause as one wire code from either client stack", () => {
    const pairs: [unknown, unknown][] = [
      [new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"), new McpTimeoutError()],
      [
        new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"),
        new McpClosedError("closed"),
      ],
      [
        new ProtocolError(-32602, "no such tool"),
        new McpServerError("weather", { rpcCode: -32602, message: "no such tool" }),
      ],
    ];
    for (const [sdk, connection] of pairs) {
      const fromSdk = toWireError(requestFailure(sdk, "weather", "request"));
      const fromConnection = toWireError(connectionFailure(connection));
      expect([fromSdk.code, fromSdk.retryable]).toEqual([
        fromConnection.code,
        fromConnection.retryable,
      ]);
    }
  });

  it("throws an unknown failure after connecting on as it is, for the mapping to make internal", () => {
    const unknown = new TypeError("secret detail");
    expect(requestFailure(unknown, "weather", "request")).toBe(unknown);
    expect(toWireError(requestFailure(unknown, "weather", "request"))).toEqual({
      code: "internal",
      message: INTERNAL_ERROR_MESSAGE,
      retryable: false,
    });
  });

  it("says a server could not be reached without repeating the network's raw text", () => {
    const refused = requestFailure(
      new TypeError("connect ECONNREFUSED 10.0.0.5:8080"),
      "weather",
      "connect",
    );
    expect(refused).toMatchObject({ code: "unavailable" });
    expect((refused as Error).message).not.toContain("10.0.0.5");
    expect((refused as Error).message).toMatch(/^Couldn't reach weather/);
  });
});
