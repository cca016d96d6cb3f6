import { describe, expect, it } from "vitest";
import { promptText } from "./prompt-text";

describe("a prompt's text for the composer", () => {
  it("joins text and embedded text, and names what it cannot inline", () => {
    const text = promptText({
      messages: [
        { role: "user", content: { type: "text", text: "Review this." } },
        {
          role: "user",
          content: { type: "resource", resource: { uri: "file:///a.ts", text: "const a = 1;" } },
        },
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAAA" },
          },
        },
        { role: "assistant", content: { type: "image", data: "iVBO", mimeType: "image/png" } },
        { role: "user", content: { type: "audio", data: "UklG", mimeType: "audio/wav" } },
        {
          role: "user",
          content: {
            type: "resource_link",
            uri: "file:///c.md",
            name: "c",
            mimeType: "text/markdown",
          },
        },
        { role: "user", content: { type: "text", text: "" } },
      ],
    });
    expect(text).toBe(
      [
        "Review this.",
        "const a = 1;",
        "[Resource file:///b.bin (application/octet-stream)]",
        "[Image (image/png)]",
        "[Audio (audio/wav)]",
        "[Resource file:///c.md (text/markdown)]",
      ].join("\n\n"),
    );
  });
});
