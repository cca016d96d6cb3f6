import { describe, expect, it } from "vitest";
import { httpOrigin, isHttpOrigin } from "./http-origin";

describe("httpOrigin", () => {
  it.each([
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["http://127.0.0.1:3000/", "http://127.0.0.1:3000"],
    ["HTTP://LocalHost:80/path?q#h", "http://localhost"],
    ["https://chat.example.com:443", "https://chat.example.com"],
    ["https://[::1]:8443/x", "https://[::1]:8443"],
    ["http://0x7f.1:8787", "http://127.0.0.1:8787"],
    ["ws://127.0.0.1:3000", undefined],
    ["javascript:alert(1)", undefined],
    ["file:///etc/passwd", undefined],
    ["127.0.0.1:3000", undefined],
    ["", undefined],
    ["not a url", undefined],
  ])("%s → %s", (value, expected) => {
    expect(httpOrigin(value)).toBe(expected);
  });
});

describe("isHttpOrigin", () => {
  it.each([
    ["http://127.0.0.1:3000", true],
    ["http://127.0.0.1:3000/", true],
    ["HTTPS://Chat.Example.com", true],
    ["http://127.0.0.1:3000/path", false],
    ["http://127.0.0.1:3000?x", false],
    ["http://localhost:80", false],
    ["ws://127.0.0.1", false],
    ["*", false],
  ])("%s → %s", (value, expected) => {
    expect(isHttpOrigin(value)).toBe(expected);
  });
});
