import { describe, expect, it } from "vitest";
import { personContent } from "./person-content";

describe("a person's message for the model", () => {
  it("is its text alone when nothing is attached", () => {
    expect(personContent([{ type: "text", text: "Hi." }])).toBe("Hi.");
  });

  it("labels a text resource with its URI, gives an image as a file, and names other blobs", () => {
    const content = personContent([
      { type: "text", text: "Look." },
      { type: "resource", source: "files", uri: "file:///a.md", name: "a", text: "# A" },
      {
        type: "resource",
        source: "files",
        uri: "file:///b.png?v=2",
        mimeType: "image/png",
        blob: "iVBO",
      },
      {
        type: "resource",
        source: "files",
        uri: "file:///c.zip",
        mimeType: "application/zip",
        blob: "UEsD",
      },
    ]);
    expect(content).toEqual([
      { type: "text", text: "Look." },
      {
        type: "text",
        text: '[The person attached the resource file:///a.md ("a") of the server files.]\n\n# A',
      },
      {
        type: "text",
        text: "[The person attached the resource file:///b.png?v=2 of the server files, image/png.]",
      },
      { type: "file", data: "iVBO", mediaType: "image/png", filename: "b.png" },
      {
        type: "text",
        text: "[The person attached the resource file:///c.zip of the server files, application/zip.]\n\n(Its contents, of type application/zip, cannot be shown to you.)",
      },
    ]);
  });
});
