// Through a real socket: a view's declared permissions reach the sandbox's proxy
// URL (and so the inner frame's `allow`) only when the browser says the person granted them
// with `card:attach`; nothing granted, nothing there. The attach reply still names what the view
// declared, so the browser can ask.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { mcpChatHost } from "../src/mcp-chat-host";
import { McpApp } from "../src/sources/mcp-app";
import { openCard, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

function cameraApp(): McpApp {
  return new McpApp({
    name: "camera",
    title: "Camera",
    html: "<!doctype html><html><body><p>Camera</p></body></html>",
    permissions: { camera: {}, microphone: {} },
    tools: [
      {
        name: "open-camera",
        description: "Opens the camera view.",
        inputSchema: { label: z.string().optional() },
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: () => ({ content: [{ type: "text", text: "open" }] }),
      },
    ],
  });
}

/** The permissions the proxy URL carries, or undefined when it carries none. */
function proxyPermissions(proxyUrl: string): unknown {
  const value = new URL(proxyUrl).searchParams.get("permissions");
  return value === null ? undefined : JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
}

describe("card:attach and a view's permissions", () => {
  it("puts only what the person granted into the proxy URL", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), cameraApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "open-camera");

    const asked = await client.value("card:attach", { instanceId: card.instanceId });
    expect(asked.page.permissions).toEqual({ camera: {}, microphone: {} });
    expect(proxyPermissions(asked.page.proxyUrl)).toBeUndefined();

    const some = await client.value("card:attach", {
      instanceId: card.instanceId,
      permissions: ["microphone", "geolocation"],
    });
    expect(proxyPermissions(some.page.proxyUrl)).toEqual({ microphone: {} });

    const all = await client.value("card:attach", {
      instanceId: card.instanceId,
      permissions: ["camera", "microphone"],
    });
    expect(proxyPermissions(all.page.proxyUrl)).toEqual({ camera: {}, microphone: {} });
  });

  it("refuses a permission name it does not know, before doing anything", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), cameraApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "open-camera");
    const answer = await client.request("card:attach", {
      instanceId: card.instanceId,
      permissions: ["usb"],
    } as never);
    expect(answer).toMatchObject({ ok: false, error: { code: "bad_request" } });
  });
});
