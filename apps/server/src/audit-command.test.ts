import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { auditLine, parseAuditOptions, parseAuditTime } from "./audit-command";

const now = Date.parse("2031-05-08T12:00:00Z");

describe("parseAuditTime", () => {
  it.each([
    ["2031-05-01", Date.parse("2031-05-01T00:00:00Z")],
    ["2031-05-01T10:00:00Z", Date.parse("2031-05-01T10:00:00Z")],
    ["1935000000000", 1_935_000_000_000],
    ["30m", now - 30 * 60_000],
    ["12h", now - 12 * 3_600_000],
    ["7d", now - 7 * 86_400_000],
    ["2w", now - 14 * 86_400_000],
  ])("reads %s", (text, expected) => {
    expect(parseAuditTime("--since", text, now)).toBe(expected);
  });

  it.each(["yesterday", "12 hours", "May 1", ""])("refuses %j, naming the option", (text) => {
    expect(() => parseAuditTime("--until", text, now)).toThrow(/^--until must be/);
  });
});

describe("parseAuditOptions", () => {
  it("builds the filter and the data file's path", () => {
    const options = parseAuditOptions(
      ["--data", "d", "--user", "ada", "--conversation", "c-1", "--since", "1d", "--limit", "5"],
      now,
    );
    expect(options.file).toBe(join(resolve("d"), "mcp-chat-host.db"));
    expect(options.filter).toEqual({
      userId: "ada",
      conversationId: "c-1",
      since: now - 86_400_000,
      limit: 5,
    });
  });

  it("refuses a limit that is not a whole number of at least 1", () => {
    for (const limit of ["0", "-1", "2.5", "many"]) {
      expect(() => parseAuditOptions(["--limit", limit], now)).toThrow(/--limit/);
    }
  });
});

describe("auditLine", () => {
  it("writes the times as ISO 8601, the time first", () => {
    const line = auditLine({
      id: "a",
      at: Date.parse("2031-05-01T10:00:00Z"),
      userId: "ada",
      sessionId: "s",
      conversationId: "c",
      instanceId: "card",
      source: "notes",
      tool: "save",
      verdict: "allowed",
      durationMs: 1,
      approval: { answeredBy: "remembered", answer: "allow-card", scope: "card", answeredAt: 0 },
    });
    expect(line.startsWith('{"at":"2031-05-01T10:00:00.000Z","id":"a"')).toBe(true);
    expect(JSON.parse(line).approval.answeredAt).toBe("1970-01-01T00:00:00.000Z");
  });
});
