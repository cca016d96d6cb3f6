import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./loopback-host";

describe("isLoopbackHost", () => {
  it.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["localhost.", true],
    ["app.localhost", true],
    ["a.b.localhost", true],
    ["127.0.0.1", true],
    ["127.255.1.2", true],
    ["0.0.0.0", true],
    ["[::1]", true],
    ["::1", true],
    ["[::]", true],
    ["::", true],
    ["[::ffff:7f00:1]", true],
    ["::ffff:127.0.0.1", true],
    ["[::ffff:7fff:ffff]", true],
    ["localhost.example.com", false],
    ["notlocalhost", false],
    ["128.0.0.1", false],
    ["10.0.0.1", false],
    ["192.168.1.5", false],
    ["[::2]", false],
    ["[::ffff:a00:1]", false],
    ["example.com", false],
    ["", false],
  ])("%s → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
