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

  it("cuts a result whose JSON is over the limit only once escaped, and passes one just under", () => {
    // Each control character takes six characters of JSON (`\u0001`).
    const escaped = (count: number) => ({
      content: [{ type: "text" as const, text: "\u0001".repeat(count) }],
    });
    const under = escaped(1_000);
    expect(JSON.stringify(under).length).toBeLessThanOrEqual(10_000);
    expect(capToolResult(under, 10_000)).toBe(under);
    const over = escaped(2_000);
    expect(JSON.stringify(over).length).toBeGreaterThan(10_000);
    expect(capToolResult(over, 10_000)._meta?.[RESULT_CUT_META_KEY]).toEqual({
      originalChars: JSON.stringify(over).length,
      limit: 10_000,
    });
  });

  it("never counts a number's JSON as shorter than it is", () => {
    // 25 characters each: the longest a number prints.
    const numbers = Array.from({ length: 400 }, () => -0.0000012345678901234567);
    const result = { content: [], structuredContent: { numbers } };
    const length = JSON.stringify(result).length;
    expect(capToolResult(result, length)).toBe(result);
    expect(capToolResult(result, length - 1)._meta?.[RESULT_CUT_META_KEY]).toEqual({
      originalChars: length,
      limit: length - 1,
    });
  });

  it("measures the real JSON of values it cannot bound, such as one with toJSON", () => {
    const long = { toJSON: () => "y".repeat(20_000) };
    const result = { content: [], structuredContent: { long } };
    expect(capToolResult(result as never, 10_000).structuredContent).toBeUndefined();
    const short = { content: [], structuredContent: { short: { toJSON: () => "y" } } };
    expect(capToolResult(short as never, 10_000)).toBe(short);
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
