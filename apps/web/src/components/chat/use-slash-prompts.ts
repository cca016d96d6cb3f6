import type { ChatPrompt } from "@mcp-chat-host/protocol";
import { useEffect, useState } from "react";
import { listPrompts } from "../../actions/composer-offers";
import type { HostSocket } from "../../socket/host-socket";

/** The slash menu of a chat's composer, as {@link useSlashPrompts} keeps it. */
export interface SlashPrompts {
  /** Whether the menu shows: the box holds `/` and a word, and Escape did not close it. */
  open: boolean;
  /** The prompts whose name or title holds the typed word, in the servers' order. */
  matches: ChatPrompt[];
  /** The index of the highlighted prompt among {@link SlashPrompts.matches}. */
  active: number;
  /** Why the prompts could not be listed, or null. */
  error: string | null;
  /** Moves the highlight by `step`, wrapping around. */
  move(step: number): void;
  /** Closes the menu until the box's text changes. */
  dismiss(): void;
}

/**
 * The word after a `/` that opens the box, or null when the box does not start a slash command
 * (a space or a new line ends the word: `/call greet {}` is a message, not a menu).
 */
export function slashQuery(text: string): string | null {
  const match = /^\/(\S*)$/.exec(text);
  return match === null ? null : (match[1] ?? "");
}

/**
 * The composer's slash menu: the chat's prompts are fetched each time the menu opens (so a
 * server's new prompts show; the last list stays while the new one comes), then filtered by what
 * follows the `/`.
 */
export function useSlashPrompts(socket: HostSocket, chatId: string, text: string): SlashPrompts {
  const [prompts, setPrompts] = useState<ChatPrompt[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const query = slashQuery(text);
  const wanted = query !== null && dismissedAt !== text;

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    void listPrompts(socket, chatId).then((ack) => {
      if (!current) return;
      if (ack.ok) {
        setPrompts(ack.value);
        setError(null);
      } else {
        setError(`The prompts could not be listed: ${ack.error.message}`);
      }
    });
    return () => {
      current = false;
    };
  }, [wanted, socket, chatId]);

  const word = (query ?? "").toLowerCase();
  const matches = (prompts ?? []).filter(
    (prompt) =>
      prompt.name.toLowerCase().includes(word) || (prompt.title ?? "").toLowerCase().includes(word),
  );
  const highlighted = matches.length === 0 ? 0 : Math.min(active, matches.length - 1);
  return {
    open: wanted && (matches.length > 0 || error !== null),
    matches,
    active: highlighted,
    error,
    move(step) {
      if (matches.length === 0) return;
      setActive((highlighted + step + matches.length) % matches.length);
    },
    dismiss() {
      setDismissedAt(text);
    },
  };
}
