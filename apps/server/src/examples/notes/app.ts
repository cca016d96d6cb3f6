// The Notes example: a notepad the person edits in a card. It shows the two ways a page talks to
// the model: it reports its state as model context on every change, and its "Ask the assistant"
// button posts a message as the person. The page saves through an app-only tool.
import { McpApp, appTool } from "@mcp-chat-host/host";
import { z } from "zod";
import { readViewHtml, type ExampleAppOptions } from "../view-file";
import { NOTES_CHARACTER_LIMIT, countWords, wordPhrase } from "./notes-report";

/** The saved notes of one server instance (one conversation). */
interface SavedNotes {
  text: string;
  revision: number;
}

function savedNotes(state: Record<string, unknown>): SavedNotes | undefined {
  return state["notes"] as SavedNotes | undefined;
}

/**
 * Builds the Notes app (`notes`, "Notes"). Tools:
 * - `open-notes` (model; shows the page; read-only): opens the notepad, with `{ text? }` to start
 *   from; its result carries the text to show (the given text, else the saved notes, else empty).
 * - `save-notes` (app only; idempotent, not destructive, closed world): saves `{ text }` in this
 *   server instance, so each conversation has its own notes.
 *
 * @param options - where the built page lives.
 * @returns the app; its page is read from `notes.html` at every resource read.
 */
export function notesApp(options: ExampleAppOptions = {}): McpApp {
  return new McpApp({
    name: "notes",
    title: "Notes",
    version: "1.0.0",
    html: () => readViewHtml("notes", options.viewsDirectory),
    prefersBorder: true,
    tools: [
      appTool({
        name: "open-notes",
        title: "Open notes",
        description:
          "Opens the person's notepad in the conversation, optionally starting with some text. " +
          "The person edits the notes there; what they write reaches you as app context.",
        inputSchema: {
          text: z
            .string()
            .max(NOTES_CHARACTER_LIMIT)
            .optional()
            .describe("Text to start the notes with; the saved notes when omitted."),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (args, extra) => {
          const saved = savedNotes(extra.state);
          const text = args.text ?? saved?.text ?? "";
          const words = countWords(text);
          return {
            content: [{ type: "text", text: `The notes are open (${wordPhrase(words)}).` }],
            structuredContent: { text, words, saved: saved !== undefined },
          };
        },
      }),
      appTool({
        name: "save-notes",
        title: "Save notes",
        description: "Saves the notes; called by the Notes page when the person presses Save.",
        inputSchema: { text: z.string().max(NOTES_CHARACTER_LIMIT) },
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
        visibility: ["app"],
        view: false,
        handler: (args, extra) => {
          const revision = (savedNotes(extra.state)?.revision ?? 0) + 1;
          extra.state["notes"] = { text: args.text, revision } satisfies SavedNotes;
          const words = countWords(args.text);
          return {
            content: [
              {
                type: "text",
                text: `Saved the notes (${wordPhrase(words)}), version ${revision}.`,
              },
            ],
            structuredContent: { words, revision },
          };
        },
      }),
    ],
  });
}
