// What a card learns from its view's requests without changing how each is answered
// (`createPageRequests` applies both): how many are still unanswered (a card with one in flight
// is in use), and the text of the view's latest model context report (shown in the card's
// stand-in while it is paused).

/** A count of unanswered requests, shared by the wrapped handlers. */
export interface InFlightCounter {
  count: number;
}

/**
 * Wraps every handler so that `counter.count` says how many calls have not settled yet.
 *
 * @returns handlers with the same answers and errors.
 */
export function countInFlight<Handlers extends object>(
  handlers: Handlers,
  counter: InFlightCounter,
): Handlers {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    if (typeof handler !== "function") {
      wrapped[name] = handler;
      continue;
    }
    wrapped[name] = async (...args: unknown[]) => {
      counter.count += 1;
      try {
        return await (handler as (...inner: unknown[]) => unknown)(...args);
      } finally {
        counter.count -= 1;
      }
    };
  }
  return wrapped as Handlers;
}

/**
 * The text of a `ui/update-model-context`: its text blocks, one per line; else its structured
 * content as JSON.
 *
 * @returns the text, or null when the report has neither.
 */
export function reportTextOf(params: {
  content?: readonly unknown[] | undefined;
  structuredContent?: Record<string, unknown> | undefined;
}): string | null {
  const texts = (params.content ?? []).flatMap((block) =>
    block !== null &&
    typeof block === "object" &&
    (block as { type?: unknown }).type === "text" &&
    typeof (block as { text?: unknown }).text === "string"
      ? [(block as { text: string }).text]
      : [],
  );
  if (texts.length > 0) return texts.join("\n");
  if (params.structuredContent !== undefined) return JSON.stringify(params.structuredContent);
  return null;
}
