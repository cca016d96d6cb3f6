// A replayed session cookie against a whole host: the person's browser sends the session cookie to
// a stranger's listener on another loopback port (cookies ignore ports); the stranger replays it
// with the host's own Origin and tries to export the person's conversations. It must get no socket
// at all, while the person's page (cookie and binding) exports as before.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { rawRequest } from "../src/testing/http-layer-support";
import { startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await host?.close();
  host = null;
  while (closers.length > 0) await closers.pop()?.();
});

describe("a session cookie replayed from another loopback port", () => {
  it("exports nothing: the replay gets no socket, the person's page still exports", async () => {
    host = await startHost();
    const person = await host.connect({ tabId: "person" });
    await person.value("session:hello", {});
    const created = await person.value("conversation:create", { title: "Private plans" });
    const conversationId = created.conversation.id;

    // The stranger's listener records what the browser sends it.
    const received: string[] = [];
    const stranger = createServer((request, response) => {
      received.push(request.headers.cookie ?? "");
      response.end();
    });
    await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => stranger.close(() => resolve())));
    const strangerPort = (stranger.address() as AddressInfo).port;
    await rawRequest(strangerPort, "/", {
      headers: { host: `127.0.0.1:${strangerPort}`, cookie: host.cookie },
    });
    const stolen = received[0] ?? "";
    expect(stolen).toBe(host.cookie);

    const replay = await host
      .connect({ tabId: "stranger", cookie: stolen, origin: host.origin, binding: null })
      .then(
        (client) => {
          client.close();
          return null;
        },
        (error: Error & { data?: unknown }) => error,
      );
    expect(replay).not.toBeNull();
    expect(replay?.data).toMatchObject({ code: "unauthorized" });

    const exported = await person.value("conversation:export", { conversationId });
    expect(JSON.stringify(exported)).toContain("Private plans");
  });
});
