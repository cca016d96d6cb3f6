import { useNow } from "../../ui/use-now";

/**
 * "Thinking…" under a reply that streams with no text yet, with the seconds since the reply
 * started (its `createdAt`), refreshed every second while it shows.
 *
 * @param props.since - when the reply started (ms since the epoch).
 */
export function ThinkingLine(props: { since: number }) {
  const now = useNow(true);
  // The server's clock may be a little ahead of the page's: never count below zero.
  const seconds = Math.max(0, Math.floor((now - props.since) / 1_000));
  return (
    <p className="message-thinking" data-testid="message-thinking">
      <span className="spinner" aria-hidden="true" /> Thinking…
      {seconds > 0 ? (
        <span className="message-thinking-time" data-testid="message-thinking-time">
          {seconds} s
        </span>
      ) : null}
    </p>
  );
}
