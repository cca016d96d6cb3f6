// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import {
  conversationIdFromHash,
  hashForConversation,
  writeConversationHash,
} from "./conversation-hash";

beforeEach(() => window.history.replaceState(null, "", "/"));

describe("conversation hash", () => {
  it("reads the id of #/c/<id>", () => {
    expect(conversationIdFromHash("#/c/conv-1")).toBe("conv-1");
    expect(conversationIdFromHash("")).toBeNull();
    expect(conversationIdFromHash("#/other/conv-1")).toBeNull();
  });

  it("refuses ids the server would refuse", () => {
    expect(conversationIdFromHash("#/c/..%2Fsecret")).toBeNull();
    expect(conversationIdFromHash("#/c/%E0%A4%A")).toBeNull();
    expect(conversationIdFromHash("#/c/")).toBeNull();
  });

  it("writes the hash without adding a history entry", () => {
    const length = window.history.length;
    writeConversationHash("conv-2");
    expect(window.location.hash).toBe(hashForConversation("conv-2"));
    expect(window.history.length).toBe(length);
    writeConversationHash(null);
    expect(window.location.hash).toBe("");
  });
});
