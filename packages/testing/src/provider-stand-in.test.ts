import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authHeaders, post } from "../test/wire";
import { startProviderStandIn, toolNamesOf, type ProviderStandIn } from "./index";

const chat = "/v1/chat/completions";
let standIn: ProviderStandIn;
beforeEach(async () => {
  standIn = await startProviderStandIn({ apiKey: "sk-test-stand-in-key" });
});
afterEach(async () => {
  await standIn.close();
});

function chatBody(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "gpt-4.1", messages: [{ role: "user", content }], ...extra };
}

async function replyText(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { choices?: { message: { content: string } }[] };
  return body.choices?.[0]?.message.content;
}

describe("scripted replies", () => {
  it("takes queued replies in order, then asks the responder", async () => {
    standIn.respondWith([{ text: "first" }, { text: "second" }]);
    standIn.respondWith(() => ({ text: "from the responder" }));
    const texts = [];
    for (let index = 0; index < 3; index += 1) {
      texts.push(await replyText(await post(standIn, chat, chatBody("Hi"))));
    }

    expect(texts).toEqual(["first", "second", "from the responder"]);
  });

  it("uses the default responder out of the box (an echo)", async () => {
    expect(await replyText(await post(standIn, chat, chatBody("Hello there")))).toBe(
      "You said: Hello there",
    );
  });

  it("waits for an async responder, so a test can hold a reply until it lets go", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    standIn.respondWith(async () => {
      await held;
      return { text: "released" };
    });
    const pending = post(standIn, chat, chatBody("Hi"));
    const [request] = await standIn.waitForRequests(1);

    expect(request?.status).toBeUndefined();
    release();
    expect(await replyText(await pending)).toBe("released");
    expect(request?.status).toBe(200);
  });

  it("answers 500 with the API's body when the responder throws, and records why", async () => {
    standIn.respondWith(() => {
      throw new Error("script broke");
    });
    const response = await post(standIn, chat, chatBody("Hi"));

    expect(response.status).toBe(500);
    expect(standIn.requests[0]?.responderError).toBe("script broke");
  });
});

describe("injected faults", () => {
  it("plays a fault on the next request only, by default", async () => {
    standIn.injectFault({ kind: "http", status: 500 });
    const statuses = [];
    for (let index = 0; index < 2; index += 1)
      statuses.push((await post(standIn, chat, chatBody("Hi"))).status);

    expect(statuses).toEqual([500, 200]);
  });

  it("plays a fault on the requests matching `when`, `times` times", async () => {
    standIn.injectFault(
      { kind: "http", status: 429, retryAfterSeconds: 7 },
      { when: (view) => view.lastUserText === "limit me", times: 2 },
    );
    const results = [];
    for (const text of ["limit me", "not me", "limit me", "limit me"]) {
      const response = await post(standIn, chat, chatBody(text));
      results.push([response.status, response.headers.get("retry-after")]);
    }

    expect(results).toEqual([
      [429, "7"],
      [200, null],
      [429, "7"],
      [200, null],
    ]);
    expect(standIn.requests.map((request) => request.fault?.kind)).toEqual([
      "http",
      undefined,
      "http",
      undefined,
    ]);
  });

  it("lets an HTTP fault leave the queued reply for the next request; a stream fault uses it", async () => {
    standIn.respondWith([{ text: "one" }, { text: "two" }]);
    standIn.injectFault({ kind: "http", status: 500 });
    await post(standIn, chat, chatBody("Hi"));
    standIn.injectFault({ kind: "malformed" });
    await (await post(standIn, chat, chatBody("Hi", { stream: true }))).text();
    const after = await replyText(await post(standIn, chat, chatBody("Hi")));

    expect(standIn.requests.map((request) => request.reply?.text)).toEqual([
      undefined,
      "one",
      "two",
    ]);
    expect(after).toBe("two");
  });

  it("takes a fault from the reply queue too", async () => {
    standIn.respondWith([{ fault: { kind: "http", status: 401 } }, { text: "fine" }]);
    const first = await post(standIn, chat, chatBody("Hi"));
    const second = await post(standIn, chat, chatBody("Hi"));

    expect([first.status, second.status]).toEqual([401, 200]);
  });

  it("cuts a non-streaming answer halfway through its body", async () => {
    standIn.injectFault({ kind: "cut" });
    const response = await post(standIn, chat, chatBody("Hi"));

    await expect(response.text()).rejects.toThrow();
  });
});

describe("connections", () => {
  it("records closedByClient when the client aborts a stalled stream", async () => {
    standIn.injectFault({ kind: "stall", afterEvents: 2 });
    const controller = new AbortController();
    const response = await fetch(`${standIn.url}${chat}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...authHeaders(standIn) },
      body: JSON.stringify(chatBody("Hi", { stream: true })),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const [request] = standIn.requests;
    await request?.settled;

    expect(request?.closedByClient).toBe(true);
  });

  it("ends a stalled stream on close(), without counting it as closed by the client", async () => {
    standIn.injectFault({ kind: "stall", afterEvents: 1 });
    const response = await post(standIn, chat, chatBody("Hi", { stream: true }));
    const reading = response.text();
    const [request] = await standIn.waitForRequests(1);
    await standIn.close();
    await request?.settled;

    await expect(reading).rejects.toThrow();
    expect(request?.closedByClient).toBe(false);
  });
});

describe("close()", () => {
  it("leaves no server behind: the port refuses connections", async () => {
    await post(standIn, chat, chatBody("Hi"));
    await standIn.close();

    await expect(post(standIn, chat, chatBody("Hi"))).rejects.toThrow();
    expect(process.getActiveResourcesInfo()).not.toContain("TCPServerWrap");
  });
});

describe("recording", () => {
  it("keeps the API, path, parsed body, headers that matter and the auth state, never the key", async () => {
    await post(
      standIn,
      "/v1/messages",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 10,
        messages: [{ role: "user", content: "Hi" }],
        tools: [{ name: "get_time", input_schema: {} }],
      },
      {
        "x-api-key": "sk-test-stand-in-key",
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "fine-grained-tool-streaming-2025-05-14",
      },
    );
    const [request] = standIn.requests;

    expect(request).toMatchObject({
      sequence: 0,
      api: "messages",
      method: "POST",
      path: "/v1/messages",
      auth: "valid",
      headers: {
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "fine-grained-tool-streaming-2025-05-14",
        "content-type": "application/json",
      },
      status: 200,
      closedByClient: false,
    });
    expect(toolNamesOf(request!)).toEqual(["get_time"]);
    expect(JSON.stringify(request)).not.toContain("sk-test-stand-in-key");
  });

  it("refuses a body past maxBodyBytes with 413", async () => {
    const small = await startProviderStandIn({ maxBodyBytes: 64 });
    try {
      const response = await post(small, chat, chatBody("x".repeat(100)));
      expect(response.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe("a held reply when the stand-in closes", () => {
  it("drops the answer quietly once the connection is gone", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    standIn.respondWith(async () => {
      await held;
      return { text: "too late" };
    });
    const pending = post(standIn, chat, chatBody("Hi", { stream: true }));
    const [request] = await standIn.waitForRequests(1);
    await standIn.close();
    release();
    await request?.settled;

    await expect(pending).rejects.toThrow();
    expect(request?.status).toBeUndefined();
  });
});
