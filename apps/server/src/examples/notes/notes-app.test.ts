import { describe, expect, it } from "vitest";
import { listedTool, openSource, textOf, viewOf, visibilityOf } from "../test-support";
import { notesApp } from "./app";
import { NOTES_CHARACTER_LIMIT } from "./notes-report";

describe("the Notes app", () => {
  it("lists open-notes for the model with its page and read-only hints", async () => {
    const source = await openSource(notesApp());
    const tool = await listedTool(source, "open-notes");
    expect(tool.title).toBe("Open notes");
    expect(visibilityOf(tool)).toContain("model");
    expect(viewOf(tool)).toBe("ui://notes");
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["text"]);
    expect(tool.inputSchema.required ?? []).toEqual([]);
  });

  it("lists save-notes for the page only, idempotent and not destructive", async () => {
    const source = await openSource(notesApp());
    const tool = await listedTool(source, "save-notes");
    expect(visibilityOf(tool)).toEqual(["app"]);
    expect(visibilityOf(tool)).not.toContain("model");
    expect(viewOf(tool)).toBeUndefined();
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it("opens empty, then with the saved notes, and with the given text when there is one", async () => {
    const source = await openSource(notesApp());
    const first = await source.callTool("open-notes", {});
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual({ text: "", words: 0, saved: false });
    expect(textOf(first)).toBe("The notes are open (0 words).");

    const saved = await source.callTool("save-notes", { text: "buy oat milk" });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toEqual({ words: 3, revision: 1 });
    expect(textOf(saved)).toBe("Saved the notes (3 words), version 1.");

    const reopened = await source.callTool("open-notes", {});
    expect(reopened.structuredContent).toEqual({ text: "buy oat milk", words: 3, saved: true });

    const given = await source.callTool("open-notes", { text: "draft" });
    expect(given.structuredContent).toEqual({ text: "draft", words: 1, saved: true });
    expect(textOf(given)).toBe("The notes are open (1 word).");
  });

  it("counts versions per server instance, so each conversation keeps its own notes", async () => {
    const app = notesApp();
    const first = await openSource(app);
    await first.callTool("save-notes", { text: "one" });
    const second = await first.callTool("save-notes", { text: "one two" });
    expect(second.structuredContent).toEqual({ words: 2, revision: 2 });

    const other = await openSource(app);
    const fresh = await other.callTool("open-notes", {});
    expect(fresh.structuredContent).toEqual({ text: "", words: 0, saved: false });
    const otherSave = await other.callTool("save-notes", { text: "x" });
    expect(otherSave.structuredContent).toEqual({ words: 1, revision: 1 });
  });

  it("refuses notes longer than the limit without saving them", async () => {
    const source = await openSource(notesApp());
    const result = await source.callTool("save-notes", {
      text: "a".repeat(NOTES_CHARACTER_LIMIT + 1),
    });
    expect(result.isError).toBe(true);
    const reopened = await source.callTool("open-notes", {});
    expect(reopened.structuredContent).toMatchObject({ saved: false });
  });
});
