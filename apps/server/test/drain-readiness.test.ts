// The published program draining on SIGTERM while a reply is still being written: `/readyz` answers
// 503 `{"draining":true}` for the whole drain, never a refused connection; a new tab's handshake is
// refused while the open one gets its reply; then it exits.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startProviderStandIn, type ProviderStandIn } from "@mcp-chat-host/testing";
import { io, type Socket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { exitWithin, waitForStatus } from "./program-waits";
import { spawnProgram } from "./cli-child";

const folders: string[] = [];
const sockets: Socket[] = [];
let standIn: ProviderStandIn | null = null;
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await standIn?.close();
  standIn = null;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A tab: signs in with the one-time URL and connects its socket. */
async function openTab(signIn: string, tabId: string): Promise<Socket> {
  const response = await fetch(signIn, { redirect: "manual" });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const binding = /<meta name="mch-session-binding" content="([^"]*)">/.exec(
    await response.text(),
  )?.[1];
  return connectTab(new URL(signIn).origin, cookie, binding, tabId);
}

function connectTab(
  origin: string,
  cookie: string,
  binding: string | undefined,
  tabId: string,
): Promise<Socket> {
  const socket = io(origin, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie, origin },
    auth: { tabId, binding },
    timeout: 10_000,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

/** One `/readyz` answer, or how the connection failed. */
async function probe(
  url: string,
): Promise<{ status: number; body: unknown } | { refused: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { refused: cause?.code ?? String(error) };
  }
}

describe("the published program's drain", () => {
  it("answers /readyz 503 draining for the whole drain while a reply finishes, then exits", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    standIn = await startProviderStandIn({
      responder: async () => {
        await held;
        return { text: "Finished after the drain began." };
      },
    });
    const data = mkdtempSync(join(tmpdir(), "drain-readiness-"));
    folders.push(data);
    const port = await freePort();
    const child = spawnProgram(
      [
        "--port",
        String(port),
        "--data",
        data,
        "--no-examples",
        "--drain-timeout",
        "60",
        "--model",
        `openai-compatible:${standIn.openaiBaseURL}#stand-in-model`,
      ],
      {
        PATH: process.env["PATH"] ?? "",
        HOME: data,
        LOG_LEVEL: "info",
        OPENAI_COMPATIBLE_API_KEY: standIn.apiKey,
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    try {
      await waitForStatus(`http://127.0.0.1:${port}/readyz`, 200);
      for (let attempt = 0; attempt < 100 && !/\?token=/.test(stdout); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const signIn = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(stdout)?.[1];
      expect(signIn, stdout + stderr).toBeDefined();
      const tab = await openTab(signIn ?? "", "drain-tab");
      const hello = (await tab.timeout(30_000).emitWithAck("session:hello", {})) as {
        ok: boolean;
        value: { chats: { id: string }[] };
      };
      expect(hello.ok).toBe(true);
      const chatId = hello.value.chats[0]?.id ?? "";
      const finished = new Promise<void>((resolve) => {
        tab.on("turn:state", (state: { running: boolean }) => {
          if (!state.running) resolve();
        });
      });
      const sent = (await tab
        .timeout(30_000)
        .emitWithAck("message:send", { chatId, text: "Take your time.", clientId: "m1" })) as {
        ok: boolean;
      };
      expect(sent.ok).toBe(true);
      await standIn.waitForRequests(1);

      child.kill("SIGTERM");
      const readyz = `http://127.0.0.1:${port}/readyz`;
      const answers: Awaited<ReturnType<typeof probe>>[] = [];
      // Draining: the probe sees 503 (never a refused connection) and a new tab is turned away.
      for (let attempt = 0; attempt < 200 && answers.length < 20; attempt += 1) {
        const answer = await probe(readyz);
        if ("status" in answer && answer.status === 200) continue; // SIGTERM not handled yet
        answers.push(answer);
      }
      expect(answers).toHaveLength(20);
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 503, body: { ok: false, draining: true } });
      }
      await expect(
        connectTab(`http://127.0.0.1:${port}`, "", undefined, "late-tab"),
      ).rejects.toThrow();
      expect((await probe(readyz)) as unknown).toMatchObject({ status: 503 });

      // The open tab's reply finishes; the drain ends and the program exits.
      release();
      await finished;
      const exit = await exitWithin(child, 20_000);
      expect(exit, stderr).toEqual({ code: 0, signal: null });
      expect(stdout).toContain("every reply finished; stopping");
      expect(await probe(readyz)).toMatchObject({ refused: "ECONNREFUSED" });
    } finally {
      release();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 120_000);
});
