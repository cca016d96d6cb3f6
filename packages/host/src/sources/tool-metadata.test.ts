import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import type { SourceTool } from "./source";
import { SourceError } from "./source-error";
import {
  TOOL_FAILED_TEXT,
  isVisibleTo,
  modelValue,
  resultText,
  toSourceTool,
  toolDisplayTitle,
  toolHasView,
  toolResourceUri,
  toolVisibility,
} from "./tool-metadata";

function tool(meta?: Record<string, unknown>): SourceTool {
  const result: SourceTool = { name: "get-time", inputSchema: { type: "object" } };
  if (meta !== undefined) result.meta = meta;
  return result;
}

describe("toolResourceUri", () => {
  it("reads _meta.ui.resourceUri", () => {
    expect(toolResourceUri(tool({ ui: { resourceUri: "ui://clock/page.html" } }))).toBe(
      "ui://clock/page.html",
    );
  });

  it("falls back to the legacy flat key ui/resourceUri", () => {
    expect(toolResourceUri(tool({ "ui/resourceUri": "ui://clock/legacy.html" }))).toBe(
      "ui://clock/legacy.html",
    );
  });

  it("prefers the nested key when both are there, and ignores a nested value that is not a string", () => {
    expect(
      toolResourceUri(tool({ ui: { resourceUri: "ui://a" }, "ui/resourceUri": "ui://b" })),
    ).toBe("ui://a");
    expect(toolResourceUri(tool({ ui: { resourceUri: 7 }, "ui/resourceUri": "ui://b" }))).toBe(
      "ui://b",
    );
  });

  it("gives undefined for a tool without a view", () => {
    expect(toolResourceUri(tool())).toBeUndefined();
    expect(toolResourceUri(tool({ ui: { visibility: ["app"] } }))).toBeUndefined();
    expect(toolResourceUri(tool({ ui: "ui://not-an-object" }))).toBeUndefined();
    expect(toolHasView(tool())).toBe(false);
  });

  it("throws invalid_view_uri for a view URI that is not ui://", () => {
    const bad = tool({ ui: { resourceUri: "https://example.com/page.html" } });
    expect(toolHasView(bad)).toBe(true);
    expect(() => toolResourceUri(bad)).toThrow(SourceError);
    expect(() => toolResourceUri(bad)).toThrow(
      /"get-time" names its view "https:\/\/example.com\/page.html"/,
    );
    try {
      toolResourceUri(bad);
    } catch (error) {
      expect((error as SourceError).code).toBe("invalid_view_uri");
    }
  });
});

describe("toolVisibility and isVisibleTo", () => {
  it("defaults to both when visibility is absent or not an array", () => {
    expect(toolVisibility(tool())).toEqual(["model", "app"]);
    expect(toolVisibility(tool({ ui: { resourceUri: "ui://a" } }))).toEqual(["model", "app"]);
    expect(toolVisibility(tool({ ui: { visibility: "app" } }))).toEqual(["model", "app"]);
  });

  it("reads an app-only and a model-only tool", () => {
    const appOnly = tool({ ui: { visibility: ["app"] } });
    expect(toolVisibility(appOnly)).toEqual(["app"]);
    expect(isVisibleTo(appOnly, "model")).toBe(false);
    expect(isVisibleTo(appOnly, "app")).toBe(true);
    const modelOnly = tool({ ui: { visibility: ["model"] } });
    expect(isVisibleTo(modelOnly, "model")).toBe(true);
    expect(isVisibleTo(modelOnly, "app")).toBe(false);
  });

  it("ignores unknown entries and keeps an explicit empty list empty", () => {
    expect(toolVisibility(tool({ ui: { visibility: ["app", "person", "app"] } }))).toEqual(["app"]);
    expect(toolVisibility(tool({ ui: { visibility: [] } }))).toEqual([]);
  });

  it("reads visibility next to the legacy view key", () => {
    const legacy = tool({ "ui/resourceUri": "ui://a", ui: { visibility: ["app"] } });
    expect(toolResourceUri(legacy)).toBe("ui://a");
    expect(isVisibleTo(legacy, "model")).toBe(false);
  });
});

describe("toSourceTool and toolDisplayTitle", () => {
  it("keeps the definition and moves _meta to meta, leaving out what is absent", () => {
    const converted = toSourceTool({
      name: "get-time",
      title: "Get time",
      description: "Gets the time.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: "ui://a" } },
    });
    expect(converted).toEqual({
      name: "get-time",
      title: "Get time",
      description: "Gets the time.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      meta: { ui: { resourceUri: "ui://a" } },
    });
    expect(Object.keys(toSourceTool({ name: "x", inputSchema: { type: "object" } }))).toEqual([
      "name",
      "inputSchema",
    ]);
  });

  it("titles a tool by its title, then annotations.title, then its name", () => {
    expect(toolDisplayTitle({ name: "a", title: "A", annotations: { title: "B" } })).toBe("A");
    expect(toolDisplayTitle({ name: "a", annotations: { title: "B" } })).toBe("B");
    expect(toolDisplayTitle({ name: "a" })).toBe("a");
  });
});

describe("modelValue", () => {
  const text = (value: string) => ({ type: "text" as const, text: value });
  const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

  it("gives a failed tool's text blocks joined with a newline", () => {
    const result: CallToolResult = {
      isError: true,
      content: [text("disk full"), image, text("try later")],
    };
    expect(modelValue(result)).toEqual({ isError: true, text: "disk full\ntry later" });
  });

  it('says "The tool failed." when a failed tool gave no text', () => {
    expect(modelValue({ isError: true, content: [] })).toEqual({
      isError: true,
      text: TOOL_FAILED_TEXT,
    });
    expect(modelValue({ isError: true, content: [image] })).toEqual({
      isError: true,
      text: "The tool failed.",
    });
  });

  it("gives the structured content when there is some", () => {
    const structured = { cpu: [1, 2], memory: { used: 3 } };
    expect(modelValue({ content: [text("summary")], structuredContent: structured })).toEqual({
      isError: false,
      value: structured,
    });
  });

  it("gives the text when there is no structured content, or it is empty", () => {
    expect(modelValue({ content: [text("12:00"), image, text("UTC")] })).toEqual({
      isError: false,
      value: "12:00\nUTC",
    });
    expect(modelValue({ content: [text("t")], structuredContent: {} })).toEqual({
      isError: false,
      value: "t",
    });
    expect(modelValue({ content: [] })).toEqual({ isError: false, value: "" });
  });

  it("gives the text for a lone scalar wrapped as { value }", () => {
    for (const value of [3, "three", true, null]) {
      expect(modelValue({ content: [text("3")], structuredContent: { value } })).toEqual({
        isError: false,
        value: "3",
      });
    }
  });

  it("keeps { value } when the value is not a scalar, or other keys sit beside it", () => {
    expect(modelValue({ content: [text("t")], structuredContent: { value: [1] } })).toEqual({
      isError: false,
      value: { value: [1] },
    });
    expect(
      modelValue({ content: [text("t")], structuredContent: { value: 1, unit: "s" } }),
    ).toEqual({
      isError: false,
      value: { value: 1, unit: "s" },
    });
  });

  it("resultText skips blocks that are not text", () => {
    expect(resultText({ content: [image] })).toBe("");
    expect(resultText({ content: [text("a"), text("b")] })).toBe("a\nb");
  });
});
