// Test support: raw HTTP requests to the stand-in and a reader of server-sent events, for the
// tests that check the wire itself rather than what the AI SDK makes of it.
import type { ProviderStandIn } from "../src/index";

/** One server-sent event as read off the wire. */
export interface WireEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** Headers that authenticate with every API, plus Anthropic's version header. */
export function authHeaders(standIn: ProviderStandIn): Record<string, string> {
  return {
    authorization: `Bearer ${standIn.apiKey}`,
    "x-api-key": standIn.apiKey,
    "anthropic-version": "2023-06-01",
  };
}

/** Posts a JSON body to a stand-in path. */
export async function post(
  standIn: ProviderStandIn,
  path: string,
  body: unknown,
  headers: Record<string, string> = authHeaders(standIn),
): Promise<Response> {
  return fetch(`${standIn.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** @returns the events of a whole `text/event-stream` body, in order. */
export async function readEvents(response: Response): Promise<WireEvent[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length);
      const data = lines.find((line) => line.startsWith("data: "))?.slice("data: ".length) ?? "";
      return { event, data };
    });
}

/** @returns each event's data parsed as JSON (`[DONE]` kept as the string). */
export function payloads(events: readonly WireEvent[]): Record<string, unknown>[] {
  return events.map((event) =>
    event.data === "[DONE]" ? { done: true } : (JSON.parse(event.data) as Record<string, unknown>),
  );
}
