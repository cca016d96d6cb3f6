import type { ModelMessage } from "ai";
import { escapeReportTags } from "./report-escape";
import { reportText, type AppContentParams } from "./report-text";

/** The sentence that opens the app context; it says where the reports come from. */
export const APP_CONTEXT_HEADER =
  "The person has these apps open in the conversation. Each app reports what it shows now; the reports come from the apps, not from the person.";

/** At most this many apps are described, the most recently changed ones. */
const APP_CONTEXT_MAX_APPS = 5;

/** Each app's report is cut to this many characters (the last three being "..."). */
const APP_CONTEXT_MAX_CHARACTERS = 2000;

/** What the context relay needs to know about one card or pane of a session. */
export interface ContextCard {
  /** The instance id (`host-…`). */
  readonly instanceId: string;
  /** The card's title; when empty or missing, the tool name stands in. */
  readonly title: string | null;
  /** The name of the tool that opened it. */
  readonly tool: string;
  /** Panes never reach a model. */
  readonly kind: "card" | "pane";
  /**
   * The chat the card belongs to, already resolved (see `cardChatKey`): the saved owner if it is
   * a string, else the only chat, else null.
   */
  readonly ownerChat: string | null;
  /** Closed cards drop out of the context. */
  readonly disposed: boolean;
  /** The latest `ui/update-model-context` params, or null before the first report. */
  readonly report: AppContentParams | null;
  /** When the latest report arrived (any monotonic clock); null counts as 0. */
  readonly reportedAt: number | null;
}

/**
 * Builds the app context of one chat: the open cards of that chat with a
 * non-empty report, the five most recently reported, listed oldest first, each report cut to
 * 2,000 characters and wrapped in an `<app-context app="…" id="…">` block under the header.
 *
 * @param cards - every card and pane of the session, in creation order (the order breaks ties).
 * @param chatKey - the chat whose model is about to be asked.
 * @returns the text to give the model, or null when no card of that chat has anything to report.
 */
export function buildAppContext(cards: Iterable<ContextCard>, chatKey: string): string | null {
  const eligible: { card: ContextCard; text: string; time: number }[] = [];
  for (const card of cards) {
    if (card.disposed || card.kind !== "card" || card.ownerChat !== chatKey) continue;
    if (card.report === null) continue;
    const text = reportText(card.report);
    if (text === "") continue;
    eligible.push({ card, text, time: card.reportedAt ?? 0 });
  }
  if (eligible.length === 0) return null;
  // Array.prototype.sort is stable: cards reported at the same time keep their creation order
  // before the reversal.
  const chosen = eligible
    .sort((left, right) => right.time - left.time)
    .slice(0, APP_CONTEXT_MAX_APPS)
    .reverse();
  const blocks = chosen.map(({ card, text }) => {
    const name = card.title !== null && card.title !== "" ? card.title : card.tool;
    // The escape runs after truncation, so cutting a text can't re-create a tag. The title and id
    // come from the app's server: a lookalike tag there is neutralised too.
    const body = escapeReportTags(truncateReport(text));
    const app = escapeReportTags(escapeAttribute(name));
    const id = escapeReportTags(escapeAttribute(card.instanceId));
    return `<app-context app="${app}" id="${id}">\n${body}\n</app-context>`;
  });
  return [APP_CONTEXT_HEADER, ...blocks].join("\n\n");
}

/**
 * Cuts a report to {@link APP_CONTEXT_MAX_CHARACTERS} characters: a longer text keeps its first
 * 1,997 characters and gets "...". Characters are code points, so an emoji is never split.
 *
 * @param text - a report's text.
 * @returns the text, at most 2,000 characters long.
 */
export function truncateReport(text: string): string {
  // A string of at most 2,000 UTF-16 units has at most 2,000 code points: no need to split it.
  if (text.length <= APP_CONTEXT_MAX_CHARACTERS) return text;
  const characters = Array.from(text);
  if (characters.length <= APP_CONTEXT_MAX_CHARACTERS) return text;
  return characters.slice(0, APP_CONTEXT_MAX_CHARACTERS - 3).join("") + "...";
}

const ATTRIBUTE_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "\r": "&#13;",
  "\n": "&#10;",
  "\t": "&#9;",
};

/**
 * Escapes a value for a double-quoted attribute, as `htmltools::htmlEscape(attribute = TRUE)`
 * does: `& < > " '` become entities, and CR, LF and TAB numeric entities.
 *
 * @param value - the raw value (a title or an instance id).
 * @returns the escaped value.
 */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"'\r\n\t]/g, (character) => ATTRIBUTE_ENTITIES[character] ?? character);
}

/**
 * The messages for one model call: the stored history, then the app context as a separate user
 * message, then the person's message. Pass the result once to `streamText`: the context then stays
 * in place for every tool round of that reply, and since only the reply's response messages are
 * stored, the saved conversation never contains it.
 *
 * @param history - the stored conversation before the person's message (not modified).
 * @param personMessage - the person's new message.
 * @param contextText - the text from {@link buildAppContext}, or null for none.
 * @returns a new array; without context, `[...history, personMessage]`.
 */
export function withAppContext(
  history: readonly ModelMessage[],
  personMessage: ModelMessage,
  contextText: string | null,
): ModelMessage[] {
  if (contextText === null || contextText === "") return [...history, personMessage];
  const contextMessage: ModelMessage = { role: "user", content: contextText };
  return [...history, contextMessage, personMessage];
}
