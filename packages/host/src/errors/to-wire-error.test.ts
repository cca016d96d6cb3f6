import {
  McpBusyError,
  McpClosedError,
  McpConfigError,
  McpConnectionError,
  McpPermissionDeniedError,
  McpSharedConnectionError,
  McpTimeoutError,
  ToolRegistrationError,
  mcpConnectionErrorCodes,
} from "@mcp-chat-host/connection";
import { wireErrorCodes } from "@mcp-chat-host/protocol";
import { SandboxConfigurationError } from "@mcp-chat-host/sandbox";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalError } from "../gate/approval-types";
import { PolicyConfigError } from "../gate/policies";
import { HostError } from "../host-error";
import { ModelSelectionError } from "../model/model-selection";
import { HttpLayerError } from "./http-layer-error";
import { SourceError } from "../sources/source-error";
import { StoreError } from "../store/store-error";
import { INTERNAL_ERROR_MESSAGE } from "./internal-error";
import { connectionFailure } from "../sources/connection-error";
import { PageRequestFailure } from "./page-request-failure";
import { internalErrorClasses, localErrorWireRules, toWireError } from "./to-wire-error";

const MESSAGE = "What happened, and what to do next.";

/** One error of each local class and code, built as the code's owner builds it. */
const errorsByTable = {
  store: (code: string) => new StoreError(code as never, MESSAGE),
  source: (code: string) => new SourceError(code as never, MESSAGE),
  connection: (code: string) => new McpConnectionError(code as never, MESSAGE),
  sharedConnection: (code: string) => new McpSharedConnectionError(code as never, MESSAGE),
  approval: (code: string) => new ApprovalError(code as never, MESSAGE),
} satisfies Record<keyof typeof localErrorWireRules, (code: string) => Error>;

const wireCodes: ReadonlySet<string> = new Set(wireErrorCodes);

describe("toWireError", () => {
  it("maps every code of every local class by its rule, keeping the message", () => {
    let checked = 0;
    for (const [table, rules] of Object.entries(localErrorWireRules)) {
      const build = errorsByTable[table as keyof typeof errorsByTable];
      for (const [code, rule] of Object.entries(rules)) {
        const wire = toWireError(build(code));
        expect(wireCodes.has(wire.code), `${table}.${code}`).toBe(true);
        expect(wire, `${table}.${code}`).toEqual({
          code: rule.code,
          message: MESSAGE,
          retryable: rule.retryable === true,
        });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("has a rule for each code the connection package lists", () => {
    expect(Object.keys(localErrorWireRules.connection).sort()).toEqual(
      [...mcpConnectionErrorCodes].sort(),
    );
  });

  it("decides retryability per code: an allowlist refusal is not retried, an ended connection is", () => {
    expect(toWireError(new McpPermissionDeniedError("tools", "delete"))).toMatchObject({
      code: "forbidden",
      retryable: false,
    });
    expect(toWireError(new McpTimeoutError())).toMatchObject({ code: "timeout", retryable: true });
    expect(toWireError(new McpClosedError("closed"))).toMatchObject({
      code: "closed",
      retryable: true,
    });
    expect(toWireError(new McpBusyError())).toMatchObject({ code: "busy", retryable: true });
    expect(toWireError(new SourceError("protocol", MESSAGE))).toMatchObject({
      code: "unavailable",
      retryable: false,
    });
  });

  it("keeps the store's own retryability for storage failures", () => {
    const busy = new StoreError("storage_busy", MESSAGE, { retryable: true });
    expect(toWireError(busy)).toEqual({ code: "storage", message: MESSAGE, retryable: true });
    const full = new StoreError("storage_full", MESSAGE);
    expect(toWireError(full)).toEqual({ code: "storage", message: MESSAGE, retryable: false });
  });

  it("sends a HostError as it is", () => {
    expect(toWireError(new HostError("refused", MESSAGE, { rpcCode: -32602 }))).toEqual({
      code: "refused",
      message: MESSAGE,
      retryable: false,
      rpcCode: -32602,
    });
    expect(toWireError(new HostError("rate_limited", MESSAGE, { retryable: true }))).toEqual({
      code: "rate_limited",
      message: MESSAGE,
      retryable: true,
    });
  });

  it("turns the operator's and the program's errors into internal, without their message", () => {
    const samples = [
      new HttpLayerError("bad_option", "secret detail"),
      new McpConfigError("secret detail"),
      new ModelSelectionError("model-key-missing", "secret detail"),
      new PolicyConfigError("secret detail"),
      new SandboxConfigurationError("invalid_host_origin", "secret detail"),
      new ToolRegistrationError("secret detail"),
      z.object({ a: z.string() }).safeParse({}).error,
    ];
    // One sample of each class the mapping names as internal, in its order.
    expect(samples).toHaveLength(internalErrorClasses.length);
    samples.forEach((sample, index) => {
      expect(sample).toBeInstanceOf(internalErrorClasses[index] as unknown as typeof Error);
    });
    for (const sample of samples) {
      expect(toWireError(sample)).toEqual({
        code: "internal",
        message: INTERNAL_ERROR_MESSAGE,
        retryable: false,
      });
    }
  });

  it("never passes an unknown object through, even one shaped like a wire error", () => {
    const lookalikes: unknown[] = [
      Object.assign(new Error("secret detail"), { code: "rate_limited", retryable: true }),
      { code: "busy", message: "secret detail", retryable: true },
      Object.assign(new Error("secret detail"), { code: "ENOENT" }),
      new TypeError("Cannot read properties of undefined"),
      "a string",
      null,
      undefined,
      new StoreError("no_such_code" as never, "secret detail"),
    ];
    for (const lookalike of lookalikes) {
      expect(toWireError(lookalike)).toEqual({
        code: "internal",
        message: INTERNAL_ERROR_MESSAGE,
        retryable: false,
      });
    }
  });

  it("sends one connection cause as one wire code, whether or not a source converted it", () => {
    for (const code of mcpConnectionErrorCodes) {
      const error = new McpConnectionError(code, MESSAGE);
      const converted = connectionFailure(error);
      expect(converted, code).toBeInstanceOf(SourceError);
      expect(toWireError(converted), code).toEqual(toWireError(error));
    }
    // The allowlist's refusal: `forbidden` on both paths, never `unavailable`.
    const denied = new McpPermissionDeniedError("tools", "delete");
    expect(toWireError(denied).code).toBe("forbidden");
    expect(toWireError(connectionFailure(denied))).toEqual(toWireError(denied));
  });

  it("adds a page's JSON-RPC code to what the mapping decides", () => {
    expect(toWireError(new SourceError("timeout", MESSAGE), { rpcCode: -32603 })).toEqual({
      code: "timeout",
      message: MESSAGE,
      retryable: true,
      rpcCode: -32603,
    });
    expect(toWireError(new PageRequestFailure(new McpBusyError(), -32603))).toEqual({
      code: "busy",
      message: new McpBusyError().message,
      retryable: true,
      rpcCode: -32603,
    });
  });

  it("answers a page whose request failed unexpectedly with the internal sentence and its code", () => {
    const failure = new PageRequestFailure(
      new TypeError("secret detail at /srv/app.js:12"),
      -32603,
    );
    expect(toWireError(failure)).toEqual({
      code: "internal",
      message: INTERNAL_ERROR_MESSAGE,
      retryable: false,
      rpcCode: -32603,
    });
    // The log, not the browser, gets the detail.
    expect(failure.message).toBe("secret detail at /srv/app.js:12");
  });
});
