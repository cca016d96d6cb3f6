import { describe, expect, it } from "vitest";
import { capToolResult, RESULT_CUT_META_KEY } from "./capped-result";

describe("capToolResult", () => {
  it("passes a result under the limit through as it is", () => {
    const result = {
      content: [{ type: "text" as const, text: "small" }],
      structuredContent: { a: 1 },
    };
    expect(capToolResult(result, 10_000)).toBe(result);
  });

  it("keeps the start of the text of an 8 MB result, says it was cut, and fits the limit", () => {
    const big = "x".repeat(8_000_000);
    const capped = capToolResult(
      {
        content: [
          { type: "text", text: "first" },
          { type: "image", data: "A".repeat(100_000), mimeType: "image/png" },
          { type: "text", text: big },
        ],
        structuredContent: { rows: [big] },
        isError: false,
      },
      50_000,
    );
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(50_000);
    expect(capped.content[0]).toEqual({ type: "text", text: "first" });
    expect(capped.content.some((block) => block.type === "image")).toBe(false);
    expect(capped.structuredContent).toBeUndefined();
    expect(capped.isError).toBe(false);
    const note = capped.content.at(-1);
    expect(note?.type === "text" ? note.text : "").toContain("The host cut this tool result");
    expect(capped._meta?.[RESULT_CUT_META_KEY]).toEqual({
      originalChars: expect.any(Number) as unknown,
      limit: 50_000,
    });
  });

  it("counts escaped characters, so text full of quotes still fits", () => {
    const capped = capToolResult(
      { content: [{ type: "text", text: '"\n'.repeat(100_000) }] },
      10_000,
    );
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(10_000);
  });
});
