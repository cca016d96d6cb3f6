import { describe, expect, it } from "vitest";
import { resultCutMetaKey, resultCutOf, resultCutText } from "./result-cut";

describe("resultCutOf", () => {
  it("reads the host's cut note", () => {
    const result = {
      content: [{ type: "text", text: "…" }],
      _meta: { [resultCutMetaKey]: { originalChars: 8_000_000, limit: 200_000 } },
    };
    const cut = resultCutOf(result);
    expect(cut).toEqual({ originalChars: 8_000_000, limit: 200_000 });
    expect(cut === null ? "" : resultCutText(cut)).toBe("The result was cut to 200,000 characters");
  });

  it("finds nothing in a whole result or a malformed note", () => {
    expect(resultCutOf(null)).toBeNull();
    expect(resultCutOf({ content: [] })).toBeNull();
    expect(resultCutOf({ _meta: { [resultCutMetaKey]: { limit: "200000" } } })).toBeNull();
    expect(resultCutOf({ _meta: { other: { originalChars: 1, limit: 1 } } })).toBeNull();
  });
});
