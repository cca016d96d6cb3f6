// One server cannot take a chat down: a configured stdio server that exits at once and
// a remote server that answers 401 are left out of the chat's tools while the chat's other source
// keeps working; the person is told which server failed and why, and the log has each failure
// once, as one sentence.
import { createServer, type Server } from "node:http";
import { parseMcpConfig } from "@mcp-chat-host/connection";
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { clockApp, exchange, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
let locked: Server | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
  await new Promise<void>((resolve) => (locked ? locked.close(() => resolve()) : resolve()));
  locked = null;
});

/** A remote MCP endpoint that wants a bearer token, as a server behind OAuth answers. */
async function serverAskingForAuthorization(): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(401, {
      "WWW-Authenticate":
        'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
      "Content-Type": "application/json",
    });
    response.end(JSON.stringify({ error: "invalid_token" }));
  });
  locked = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/mcp`;
}

describe("a source that cannot be attached", () => {
  it("leaves the chat's other sources working, says which server failed and why, and logs it once", async () => {
    const url = await serverAskingForAuthorization();
    const config = parseMcpConfig({
      mcpServers: {
        broken: { command: process.execPath, args: ["-e", "process.exit(3)"] },
        locked: { url },
      },
    });
    const calls: string[] = [];
    host = await startHost({
      config,
      session(session) {
        mcpChatHost(session.chat(), [clockApp("clock", "get-time", calls), "broken", "locked"]);
      },
    });
    const client = await host.connect();
    const announced = client.next("chat:tools");
    await client.value("session:hello", {});
    expect((await announced).tools.map((tool) => tool.source)).toEqual(["clock"]);

    const done = await exchange(client, "chat-1", "/call get-time {}");
    expect(done.reply.status).toBe("complete");
    expect(done.text).toContain("It is noon at clock.");
    expect(calls).toEqual(["clock/get-time"]);
    // A second turn lists the tools again: the same failures are not told again.
    await exchange(client, "chat-1", "/call get-time {}");

    const notices = client.received
      .filter((entry) => entry.event === "notice")
      .map((entry) => entry.payload as { level: string; message: string });
    expect(notices).toEqual([
      {
        level: "warning",
        message:
          'The server "broken" could not be attached, so its tools are not available in this chat: MCP server "broken" exited during startup (exit code 3).',
      },
    ]);
    // A server the person signs in to is shown in the chat's sign-in bar and the servers panel
    // (which follow its state), not in a notice that would outlive the sign-in.
    const signIn = 'Sign in to "locked" to use its tools: open Servers and choose Connect.';
    const states = await client.value("servers:list", {});
    expect(states.find((server) => server.name === "locked")).toMatchObject({
      state: "needs-sign-in",
      reason: signIn,
    });
    const logged = [notices[0]?.message, signIn];
    for (const [index, source] of ["broken", "locked"].entries()) {
      const lines = host.logs.filter((line) => line["source"] === source);
      expect(lines).toHaveLength(1);
      const text = JSON.stringify(lines[0]);
      // The sentence once, not once per wrapped cause.
      const sentence = JSON.stringify(logged[index]).slice(1, -1);
      expect(text.split(sentence)).toHaveLength(2);
      expect(text).not.toContain("stack");
    }
  });
});
