// What the metrics tests share: the published bundle (packages/mcp-chat-host/dist/cli.js, built
// by `turbo run build`) started under plain node, a tab signed in as a browser would, and
// scrapes read series by series. Every wait is bounded.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectSocketTestClient, type SocketTestClient } from "@mcp-chat-host/host/testing";
import { expect } from "vitest";
import { childEnvironment, programPath, type RunningCli, startCli } from "./cli-child";

/** The bundle `npm start` and `npx mcp-chat-host` run. */
export const bundle = programPath;

/** A started bundle. */
export interface RunningBundle {
  /** The one-time sign-in URL it printed. */
  signIn: string;
  /** Its origin (`http://127.0.0.1:<port>`). */
  origin: string;
  /** The metrics listener's URL it printed (`--metrics-port`), if any. */
  metricsUrl: string | undefined;
  /** Its temporary folder (the data folder is in it), removed by `stop`. */
  folder: string;
  /** Stops it (SIGTERM), waits for its exit and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts the bundle on a free port with a data folder of its own and the offline model.
 *
 * @param args - more arguments.
 * @param environment - more environment variables.
 * @throws when it exits first or prints no sign-in URL within `timeoutMs`.
 */
export async function startBundle(
  args: string[],
  environment: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunningBundle> {
  const folder = mkdtempSync(join(tmpdir(), "mch-metrics-"));
  let running: RunningCli;
  try {
    running = await startCli(
      ["--port", "0", "--data", join(folder, "data"), ...args],
      childEnvironment({ MODEL: "offline", ...environment }),
      timeoutMs,
    );
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    signIn: running.signIn,
    origin: new URL(running.signIn).origin,
    // The CLI prints it before the sign-in URL.
    metricsUrl: /Metrics for your scraper: (\S+)/.exec(running.output())?.[1],
    folder,
    async stop() {
      await running.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Spends the sign-in URL as a browser does and connects a tab. */
export async function signIn(signInUrl: string, tabId = "metrics-tab"): Promise<SocketTestClient> {
  const response = await fetch(signInUrl, { redirect: "manual" });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(
    await response.text(),
  )?.[1];
  return connectSocketTestClient(new URL(signInUrl).origin, { tabId, cookie, binding });
}

/**
 * Scrapes a metrics URL; fails the test on anything but 200 in the Prometheus text format.
 *
 * @param token - sent as `Authorization: Bearer <token>` when given.
 */
export async function scrape(url: string, token?: string): Promise<string> {
  const response = await fetch(url, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** Opens the Notes card through a turn of the offline model; resolves once its result is in. */
export async function openNotes(client: SocketTestClient, text: string): Promise<string> {
  const snapshot = await client.value("session:hello", {});
  const chatId = snapshot.chats[0]?.id ?? "";
  // The card arrives as its tool part's `data-card`, the result as the part's output.
  const opened = client.next(
    "message:chunk",
    ({ chunk }) => chunk.type === "data-card" && chunk.card.tool === "open-notes",
  );
  await client.value("message:send", {
    chatId,
    text: `/call open-notes ${JSON.stringify({ text })}`,
    clientId: `metrics-${text}`,
  });
  const { chunk } = await opened;
  if (chunk.type !== "data-card") throw new Error("Not a card chunk.");
  await client.next(
    "message:chunk",
    (payload) =>
      payload.chunk.type === "tool-output-available" &&
      payload.chunk.toolCallId === chunk.toolCallId,
  );
  return chunk.card.instanceId;
}
