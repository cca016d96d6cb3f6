import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpApp } from "../sources/mcp-app";
import { ProcessSources, SessionSources, type ConfiguredSources } from "./session-sources";

const processSources = new ProcessSources(pino({ level: "silent" }));
afterEach(() => processSources.closeAll());

/** A configured server the whole process shares: a real in-process app behind the name "echo". */
function sharedEcho(): ConfiguredSources {
  const app = new McpApp({
    name: "echo",
    html: "<!doctype html><html><body>echo</body></html>",
    tools: [
      {
        name: "echo",
        description: "Answers with its text.",
        inputSchema: { text: z.string() },
        visibility: ["app"],
        handler: (args) => ({ content: [{ type: "text", text: String(args["text"]) }] }),
      },
    ],
  });
  return {
    names: () => ["echo"],
    entry: () => undefined,
    factory: (name) => (name === "echo" ? { factory: app, shared: true } : undefined),
  };
}

describe("SessionSources", () => {
  it("tells its listeners when a shared source connects, not again on every later use", async () => {
    const sources = new SessionSources(sharedEcho(), processSources, "ada");
    const key = sources.register("echo");
    const changes: string[] = [];
    sources.onChange((changed) => changes.push(`${changed}:${sources.state(changed).state}`));
    for (let use = 0; use < 3; use += 1) {
      const source = await sources.get(key);
      expect(await source.callTool("echo", { text: "ping" })).toMatchObject({
        content: [{ type: "text", text: "ping" }],
      });
    }
    expect(sources.state(key)).toEqual({ state: "connected" });
    expect(changes).toEqual(["echo:connected"]);
  });
});
