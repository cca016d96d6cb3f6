import { describe, expect, it } from "vitest";
import { reportText } from "./report-text";

describe("reportText", () => {
  it("joins text blocks with a newline", () => {
    expect(
      reportText({
        content: [
          { type: "text", text: "Showing 8 flights" },
          { type: "text", text: "Cheapest: 120 EUR" },
        ],
      }),
    ).toBe("Showing 8 flights\nCheapest: 120 EUR");
  });

  it("skips blocks that aren't text or whose text isn't a string", () => {
    expect(
      reportText({
        content: [
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "text", text: 42 },
          { type: "text" },
          null,
          "loose string",
          { type: "text", text: "kept" },
        ],
      }),
    ).toBe("kept");
  });

  it("puts the JSON of non-empty structured content after the text", () => {
    expect(
      reportText({ content: [{ type: "text", text: "Map" }], structuredContent: { zoom: 3 } }),
    ).toBe('Map\n{"zoom":3}');
    expect(reportText({ structuredContent: { city: "Oslo" } })).toBe('{"city":"Oslo"}');
  });

  it("leaves out empty structured content", () => {
    expect(reportText({ content: [{ type: "text", text: "Map" }], structuredContent: {} })).toBe(
      "Map",
    );
    expect(reportText({ structuredContent: [] })).toBe("");
    expect(reportText({ structuredContent: null })).toBe("");
  });

  it("gives an empty string for missing or malformed params", () => {
    expect(reportText(null)).toBe("");
    expect(reportText(undefined)).toBe("");
    expect(reportText({})).toBe("");
    expect(reportText({ content: "not a list" })).toBe("");
  });
});
