// The published program (packages/mcp-chat-host/dist/cli.js under plain node) in each of its
// stores, with what each loads only when chosen: on SQLite, the audit's worker thread
// (dist/sqlite-audit-worker.mjs) writes a page call that `mcp-chat-host audit` then reads; on
// Postgres (the `pg` client), a conversation outlives the program and its data folder; with
// Redis as well (the `redis` client and the socket.io adapter), that conversation comes back
// with its card live and a new card's page call goes through. A bundle that cannot import one of
// them does not start or fails the call. The cluster spec runs two nodes this way behind the
// trusted header.
import { spawn } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { startPostgres, startRedis, type RunningRedis } from "@mcp-chat-host/testing";
import { cards, openCard, viewOf } from "../support/card-frames";
import { conversationHash, signIn } from "../support/chat-page";
import { freshDataDirectory, programPath, startHost, type RunningHost } from "../support/host";

const hosts: RunningHost[] = [];
const services: { stop(): Promise<void> }[] = [];

test.afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const service of services.splice(0).reverse()) await service.stop();
});

/** Runs `mcp-chat-host audit --data <data>` to its end; resolves with its JSON lines. */
function auditLines(data: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [programPath, "audit", "--data", data], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`audit ended with ${code}:\n${stderr}`));
        return;
      }
      resolve(
        stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
    });
  });
}

/** Opens a Notes card with `text` and saves it (a page call); waits for the view's answer. */
async function saveNote(page: Page, text: string): Promise<void> {
  const { card } = await openCard(page, `/call open-notes ${JSON.stringify({ text })}`);
  const notes = viewOf(card);
  await expect(notes.getByTestId("notes-text")).toHaveValue(text);
  await notes.getByTestId("notes-save").click();
  await expect(notes.getByTestId("notes-status")).toHaveText(
    /^Saved the notes \(\d+ words?\), version 1\.$/,
  );
}

test("on SQLite, the audit's worker thread writes a page call and `audit` reads it", async ({
  page,
}) => {
  const host = await startHost();
  hosts.push(host);
  await signIn(page, host);
  await saveNote(page, "Audited by the worker");
  expect(await host.toolCalls()).toEqual({ "notes/open-notes": 1, "notes/save-notes": 1 });
  await expect
    .poll(async () =>
      (await auditLines(host.data)).map((line) => [line["source"], line["tool"], line["verdict"]]),
    )
    .toEqual([["notes", "save-notes", "allowed"]]);
});

test("on Postgres, then Postgres and Redis, the conversation outlives the program and its cards stay live", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const postgres = await startPostgres();
  services.push(postgres);
  const redis: RunningRedis = await startRedis();
  services.push(redis);

  const first = await startHost({ env: { DATABASE_URL: postgres.url } });
  hosts.push(first);
  await signIn(page, first);
  await saveNote(page, "Kept in Postgres");
  expect(await first.toolCalls()).toEqual({ "notes/open-notes": 1, "notes/save-notes": 1 });
  const hash = await conversationHash(page);
  await first.stop();
  hosts.splice(hosts.indexOf(first), 1);

  // Another data folder, so nothing can come from the first one: what comes back is Postgres's.
  const second = await startHost({
    data: freshDataDirectory(),
    env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url },
  });
  hosts.push(second);
  const ready = await fetch(`${second.origin}/readyz`);
  expect(ready.status).toBe(200);
  await signIn(page, second, hash);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute("data-status", "ready");
  await expect(viewOf(cards(page).first()).getByTestId("notes-text")).toHaveValue(
    "Kept in Postgres",
  );
  expect(await second.toolCalls()).toEqual({});
  await saveNote(page, "Through Redis");
  expect(await second.toolCalls()).toEqual({ "notes/open-notes": 1, "notes/save-notes": 1 });
});
