import { describe, expect, it } from "vitest";
import { ackError, ackOk, ackSchema } from "./ack";
import { clientEventSchemas } from "./client-events";
import { limits } from "./limits";
import { cardDescriptorSchema } from "./card-records";
import { isWireError, wireError, wireErrorSchema } from "./wire-error";
import { z } from "zod";

describe("client event schemas", () => {
  it("accept a well-formed message and trim it", () => {
    const parsed = clientEventSchemas["message:send"].parse({
      chatId: "chat-1",
      text: "  hello  ",
      clientId: "c-1",
    });
    expect(parsed.text).toBe("hello");
  });

  it("refuse unknown keys, so a payload cannot smuggle a command or a URL", () => {
    const result = clientEventSchemas["card:call-tool"].safeParse({
      instanceId: "host-1",
      name: "get-time",
      command: "rm -rf /",
    });
    expect(result.success).toBe(false);
  });

  it("refuse ids with characters outside the allowed set", () => {
    expect(clientEventSchemas["card:attach"].safeParse({ instanceId: "../x" }).success).toBe(false);
    expect(clientEventSchemas["card:attach"].safeParse({ instanceId: "" }).success).toBe(false);
  });

  it("refuse an empty or oversized message", () => {
    const schema = clientEventSchemas["message:send"];
    expect(schema.safeParse({ chatId: "c", text: "   ", clientId: "x" }).success).toBe(false);
    const long = "x".repeat(limits.maxMessageChars + 1);
    expect(schema.safeParse({ chatId: "c", text: long, clientId: "x" }).success).toBe(false);
  });

  it("refuse a card report larger than the card payload cap", () => {
    const big = "y".repeat(limits.maxCardPayloadChars);
    const result = clientEventSchemas["card:update-context"].safeParse({
      instanceId: "host-1",
      content: [{ type: "text", text: big }],
    });
    expect(result.success).toBe(false);
  });

  it("accept only the four approval decisions", () => {
    const schema = clientEventSchemas["approval:answer"];
    expect(schema.safeParse({ approvalId: "a1", decision: "allow-card" }).success).toBe(true);
    expect(schema.safeParse({ approvalId: "a1", decision: "allow-forever" }).success).toBe(false);
  });

  it("accept app messages only in the user role", () => {
    const schema = clientEventSchemas["card:post-message"];
    const content = [{ type: "text", text: "hi" }];
    expect(schema.safeParse({ instanceId: "h", role: "user", content }).success).toBe(true);
    expect(schema.safeParse({ instanceId: "h", role: "assistant", content }).success).toBe(false);
  });
});

describe("wire errors and acks", () => {
  it("build the one error shape", () => {
    const error = wireError("refused", "No.", { rpcCode: -32602 });
    expect(wireErrorSchema.parse(error)).toEqual({
      code: "refused",
      message: "No.",
      retryable: false,
      rpcCode: -32602,
    });
    expect(isWireError(error)).toBe(true);
    expect(isWireError({ code: "nope", message: "x", retryable: false })).toBe(false);
  });

  it("validate both arms of the envelope", () => {
    const schema = ackSchema(z.number());
    expect(schema.parse(ackOk(3))).toEqual({ ok: true, value: 3 });
    const failed = ackError(wireError("busy", "Busy.", { retryable: true }));
    expect(schema.parse(failed)).toEqual(failed);
    expect(schema.safeParse({ ok: true }).success).toBe(false);
  });
});

describe("card descriptor", () => {
  it("round-trips a saved descriptor without page HTML", () => {
    const card = {
      instanceId: "host-abc",
      conversationId: "conv-1",
      chatId: "chat-1",
      kind: "card",
      source: "notes",
      tool: "open-notes",
      arguments: {},
      result: { content: [{ type: "text", text: "ok" }] },
      title: "Notes",
      checked: true,
      createdAt: 1,
    };
    expect(cardDescriptorSchema.parse(card)).toEqual(card);
    expect(cardDescriptorSchema.safeParse({ ...card, kind: "dialog" }).success).toBe(false);
  });
});
