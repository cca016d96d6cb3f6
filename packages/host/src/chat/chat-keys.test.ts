import { describe, expect, it } from "vitest";
import { chatKey } from "./chat-keys";

describe("chatKey", () => {
  it("numbers chats without an id by their place", () => {
    expect(chatKey([])).toBe("chat-1");
    expect(chatKey(["support"])).toBe("chat-2");
  });

  it("makes a repeated id unique like make.unique", () => {
    expect(chatKey(["support"], "support")).toBe("support.1");
    expect(chatKey(["support", "support.1"], "support")).toBe("support.2");
  });

  it("keeps a free id as given", () => {
    expect(chatKey(["chat-1"], "sales")).toBe("sales");
  });

  it("does not collide when chat-N was taken by an explicit id", () => {
    expect(chatKey(["chat-2"])).toBe("chat-2.1");
  });
});
