import { describe, expect, it } from "vitest";
import {
  ASK_CHARACTER_LIMIT,
  REPORT_CHARACTER_LIMIT,
  askText,
  countWords,
  notesReport,
  notesStorageKey,
  wordPhrase,
} from "./notes-report";

describe("countWords", () => {
  it("counts runs between any whitespace and nothing for blank text", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("  \n\t ")).toBe(0);
    expect(countWords("one")).toBe(1);
    expect(countWords("  one\ttwo\n\nthree  ")).toBe(3);
  });

  it("says 1 word and N words", () => {
    expect(wordPhrase(1)).toBe("1 word");
    expect(wordPhrase(0)).toBe("0 words");
    expect(wordPhrase(12)).toBe("12 words");
  });
});

describe("notesReport", () => {
  it("starts with the word count and quotes the notes, with the whole text as state", () => {
    const text = "Shopping\nmilk and bread";
    expect(notesReport(text)).toEqual({
      text: "Notes (4 words):\nShopping\nmilk and bread",
      structuredContent: { words: 4, text },
    });
  });

  it("says (empty) for empty notes", () => {
    expect(notesReport("   ").text).toBe("Notes (0 words):\n(empty)");
  });

  it("quotes only the first five lines", () => {
    const text = ["1", "2", "3", "4", "5", "6", "7"].join("\n");
    expect(notesReport(text).text).toBe("Notes (7 words):\n1\n2\n3\n4\n5");
    expect(notesReport(text).structuredContent.text).toBe(text);
  });

  it("cuts a long quote to the character limit with an ellipsis", () => {
    const text = "word ".repeat(300);
    const quoted = notesReport(text).text.split("\n")[1] ?? "";
    expect(quoted).toHaveLength(REPORT_CHARACTER_LIMIT);
    expect(quoted.endsWith("...")).toBe(true);
  });
});

describe("askText", () => {
  it("asks for a summary of the notes", () => {
    expect(askText("  milk\nbread ")).toBe("Summarise my notes:\nmilk\nbread");
  });

  it("sends at most the character limit of the notes", () => {
    const asked = askText("x".repeat(ASK_CHARACTER_LIMIT * 2));
    expect(asked).toHaveLength("Summarise my notes:\n".length + ASK_CHARACTER_LIMIT);
  });
});

describe("notesStorageKey", () => {
  it("is the same for the same input and differs for another", () => {
    expect(notesStorageKey({ text: "a" })).toBe(notesStorageKey({ text: "a" }));
    expect(notesStorageKey({ text: "a" })).not.toBe(notesStorageKey({ text: "b" }));
    expect(notesStorageKey(undefined)).toBe(notesStorageKey({}));
    expect(notesStorageKey({ text: "a" })).toMatch(/^mcp-chat-host\.notes:[0-9a-f]{8}$/u);
  });
});
