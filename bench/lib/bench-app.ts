// The tiny in-process app the Node-side benchmarks use: a page (a card) and a tool the page calls.
// Small on purpose, so the figures are the host's path and not the app's work.
import { McpApp } from "@mcp-chat-host/host";

/** The app's name (its source key). */
const BENCH_APP_NAME = "bench-ticker";
/** The model-visible tool that opens the card. */
export const SHOW_TOOL = "show";
/** The app-only tool the card's page calls. */
export const TICK_TOOL = "tick";

/**
 * A new instance of the bench app: `show` opens its card; `tick` (read-only, for the page only)
 * answers with a counter kept per server instance.
 *
 * @returns the app, ready to give to `mcpChatHost` or to connect a client to.
 */
export function benchApp(): McpApp {
  return new McpApp({
    name: BENCH_APP_NAME,
    title: "Bench ticker",
    html: "<!doctype html><html><body><p>Bench ticker</p></body></html>",
    tools: [
      {
        name: SHOW_TOOL,
        description: "Shows the bench ticker.",
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: () => ({ content: [{ type: "text", text: "The ticker is open." }] }),
      },
      {
        name: TICK_TOOL,
        description: "Counts one tick (called by the page).",
        visibility: ["app"],
        view: false,
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (_args, extra) => {
          const ticks = ((extra.state["ticks"] as number | undefined) ?? 0) + 1;
          extra.state["ticks"] = ticks;
          return { content: [{ type: "text", text: `tick ${ticks}` }] };
        },
      },
    ],
  });
}
