import { describe, expect, it } from "vitest";
import { errorMessage } from "./error-message";

describe("errorMessage", () => {
  it.each([
    ["an Error", new Error("disk full"), "disk full"],
    ["an Error subclass", new TypeError("not a function"), "not a function"],
    ["a string", "timed out", "timed out"],
    ["a number", 42, "42"],
    ["a boolean", false, "false"],
    ["a bigint", 7n, "7"],
    ["an object with a string message", { code: -32603, message: "boom" }, "boom"],
  ])("gives the message of %s", (_kind, value, expected) => {
    expect(errorMessage(value)).toBe(expected);
  });

  it.each([
    ["an Error without a message", new Error()],
    ["an empty string", ""],
    ["undefined", undefined],
    ["null", null],
    ["an object without a message", { code: 1 }],
    ["an object whose message is not text", { message: { nested: true } }],
    [
      "an object whose message getter throws",
      {
        get message(): string {
          throw new Error("no");
        },
      },
    ],
    ["a symbol", Symbol("s")],
  ])("gives the fallback for %s, never [object Object]", (_kind, value) => {
    expect(errorMessage(value)).toBe("unknown error");
    expect(errorMessage(value, "the server did not say why")).toBe("the server did not say why");
  });
});
