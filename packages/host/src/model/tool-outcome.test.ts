import { describe, expect, test } from "vitest";
import { modelOutputFor, refusalOutcome, toolOutcomeFromResult } from "./tool-outcome";

describe("toolOutcomeFromResult", () => {
  test("an error gives its text blocks joined with a newline", () => {
    const raw = {
      content: [
        { type: "text" as const, text: "first" },
        { type: "image" as const, data: "AAAA", mimeType: "image/png" },
        { type: "text" as const, text: "second" },
      ],
      isError: true,
    };
    expect(toolOutcomeFromResult(raw)).toEqual({ value: "first\nsecond", isError: true, raw });
  });

  test("an error without text gives 'The tool failed.'", () => {
    const raw = { content: [], isError: true };
    expect(toolOutcomeFromResult(raw).value).toBe("The tool failed.");
  });

  test("structured content wins over the text", () => {
    const raw = {
      content: [{ type: "text" as const, text: "3" }],
      structuredContent: { sum: 3, terms: [1, 2] },
    };
    expect(toolOutcomeFromResult(raw)).toEqual({
      value: { sum: 3, terms: [1, 2] },
      isError: false,
      raw,
    });
  });

  test("empty structured content, or exactly { value: scalar }, falls back to the text", () => {
    const text = [{ type: "text" as const, text: "hello" }];
    expect(toolOutcomeFromResult({ content: text, structuredContent: {} }).value).toBe("hello");
    for (const scalar of ["x", 1, true, null]) {
      const raw = { content: text, structuredContent: { value: scalar } };
      expect(toolOutcomeFromResult(raw).value).toBe("hello");
    }
    // A non-scalar value, or another key beside it, is information the text may not carry.
    const nested = { content: text, structuredContent: { value: { deep: 1 } } };
    expect(toolOutcomeFromResult(nested).value).toEqual({ value: { deep: 1 } });
    const twoKeys = { content: text, structuredContent: { value: 1, unit: "s" } };
    expect(toolOutcomeFromResult(twoKeys).value).toEqual({ value: 1, unit: "s" });
  });

  test("text blocks of a success are joined with a newline; no text gives ''", () => {
    const raw = {
      content: [
        { type: "text" as const, text: "a" },
        { type: "text" as const, text: "b" },
      ],
    };
    expect(toolOutcomeFromResult(raw).value).toBe("a\nb");
    expect(toolOutcomeFromResult({ content: [] }).value).toBe("");
  });
});

describe("modelOutputFor", () => {
  test("maps errors to error-text, strings to text, other values to json", () => {
    expect(modelOutputFor({ value: "boom", isError: true })).toEqual({
      type: "error-text",
      value: "boom",
    });
    expect(modelOutputFor({ value: { code: 1 }, isError: true })).toEqual({
      type: "error-text",
      value: '{"code":1}',
    });
    expect(modelOutputFor({ value: "ok", isError: false })).toEqual({ type: "text", value: "ok" });
    expect(modelOutputFor({ value: { sum: 3 }, isError: false })).toEqual({
      type: "json",
      value: { sum: 3 },
    });
  });

  test("a refusal reads 'Tool call rejected. <reason>' as an error", () => {
    expect(modelOutputFor(refusalOutcome("Not now."))).toEqual({
      type: "error-text",
      value: "Tool call rejected. Not now.",
    });
  });
});
