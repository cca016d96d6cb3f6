// Issue 18 item 3, with the published program: the bundle packages/mcp-chat-host/dist/cli.js
// under plain node (built by `turbo run build`), signed in as a browser would, a turn of the
// offline model that calls the Notes example's tool, and a page call from the card. `/metrics` on
// the program's own port answers the Prometheus text format to the bearer of METRICS_TOKEN only,
// and every tool call sent to a source is counted once, a refused page call not at all.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectSocketTestClient, type SocketTestClient } from "@mcp-chat-host/host/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

const bundle = fileURLToPath(
  new URL("../../../packages/mcp-chat-host/dist/cli.js", import.meta.url),
);
const token = "metrics-test-token-6f2a9c41d0e7b3a5";

let folder = "";
let child: ChildProcessWithoutNullStreams | null = null;
let client: SocketTestClient | null = null;

beforeAll(() => {
  expect(existsSync(bundle), "the bundle is built by `npx turbo run build`").toBe(true);
});

afterEach(async () => {
  client?.close();
  client = null;
  if (child !== null && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child?.once("close", () => resolve()));
    child.kill("SIGTERM");
    await exited;
  }
  child = null;
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
  folder = "";
});

/** Starts the bundle on a free port with `environment` added; resolves with its sign-in URL. */
function startBundle(environment: Record<string, string>, timeoutMs = 60_000): Promise<string> {
  folder = mkdtempSync(join(tmpdir(), "mch-metrics-cli-"));
  const started = spawn(process.execPath, [bundle, "--port", "0", "--data", join(folder, "data")], {
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      LOG_LEVEL: "warn",
      MODEL: "offline",
      ...environment,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child = started;
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The bundle printed no sign-in URL in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    started.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    started.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const signIn = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)?.[1];
      if (signIn === undefined) return;
      clearTimeout(timer);
      resolve(signIn);
    });
    started.once("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`The bundle exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Spends the sign-in URL as a browser does and connects a tab. */
async function signIn(signInUrl: string): Promise<SocketTestClient> {
  const response = await fetch(signInUrl, { redirect: "manual" });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(
    await response.text(),
  )?.[1];
  return connectSocketTestClient(new URL(signInUrl).origin, {
    tabId: "metrics-tab",
    cookie,
    binding,
  });
}

/** Scrapes `/metrics` with the token; fails the test on anything but 200. */
async function scrape(origin: string): Promise<string> {
  const response = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one series of the scrape (0 when it is absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const present = (match[2] ?? "").split(",");
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return 0;
}

describe("/metrics of the published program", () => {
  it("counts each tool call sent to a source, for the bearer of METRICS_TOKEN only", async () => {
    const signInUrl = await startBundle({ METRICS_TOKEN: token });
    const origin = new URL(signInUrl).origin;

    for (const authorization of [undefined, "Bearer wrong-token", `Basic ${token}`, token]) {
      const refused = await fetch(`${origin}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await refused.text()).not.toContain("mcp_chat_host_");
    }
    const before = await scrape(origin);
    expect(before).toContain("# TYPE mcp_chat_host_tool_calls_total counter");
    expect(before).toContain("mcp_chat_host_nodejs_eventloop_lag_seconds");

    client = await signIn(signInUrl);
    const snapshot = await client.value("session:hello", {});
    const chatId = snapshot.chats[0]?.id ?? "";
    const opened = client.next("card:opened", (payload) => payload.card.tool === "open-notes");
    await client.value("message:send", {
      chatId,
      text: '/call open-notes {"text":"counted"}',
      clientId: "metrics-1",
    });
    const card = (await opened).card;
    await client.next("card:result", (payload) => payload.instanceId === card.instanceId);

    const model = { source: "notes", tool: "open-notes", caller: "model", outcome: "ok" };
    expect(sample(await scrape(origin), "mcp_chat_host_tool_calls_total", model)).toBe(1);

    // The page saves its notes: one call sent, counted as the page's.
    const saved = await client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "save-notes",
      arguments: { text: "from the page" },
    });
    expect(saved.ok).toBe(true);
    // A tool the card's source does not have is refused by the gate: never sent, never counted.
    const refused = await client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "no-such-tool",
      arguments: {},
    });
    expect(refused.ok).toBe(false);

    const after = await scrape(origin);
    expect(sample(after, "mcp_chat_host_tool_calls_total", model)).toBe(1);
    expect(
      sample(after, "mcp_chat_host_tool_calls_total", {
        source: "notes",
        tool: "save-notes",
        caller: "page",
        outcome: "ok",
      }),
    ).toBe(1);
    expect(after).not.toContain('tool="no-such-tool"');
    expect(
      sample(after, "mcp_chat_host_tool_call_duration_seconds_count", {
        source: "notes",
        caller: "page",
      }),
    ).toBe(1);
  });

  it("reads the token from METRICS_TOKEN_FILE", async () => {
    const tokenFile = join(mkdtempSync(join(tmpdir(), "mch-metrics-token-")), "token");
    writeFileSync(tokenFile, `${token}\n`);
    try {
      const fromFile = new URL(await startBundle({ METRICS_TOKEN_FILE: tokenFile })).origin;
      expect(await scrape(fromFile)).toContain("mcp_chat_host_tool_calls_total");
    } finally {
      rmSync(join(tokenFile, ".."), { recursive: true, force: true });
    }
  });

  it("is 404 when the operator did not turn it on", async () => {
    const origin = new URL(await startBundle({})).origin;
    for (const authorization of [undefined, `Bearer ${token}`]) {
      const response = await fetch(`${origin}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("mcp_chat_host_");
    }
  });
});
