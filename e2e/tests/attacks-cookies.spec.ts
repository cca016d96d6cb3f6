// Cookie bombs, in Chromium. Cookies ignore ports, so a page on another port of 127.0.0.1 (the
// attacker's server here; any other local app in life) can set cookies of any names that the
// browser then sends to the chat host. Under Node's default 16 KiB limit five 4 KB cookies
// answered the chat page with a bare 431 until the person cleared their cookies.
import { expect, test, type BrowserContext } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { expectChatReady, signIn } from "../support/chat-page";
import { startAttackerServer, type AttackerServer } from "../support/attacker-server";
import { startHost, type RunningHost } from "../support/host";

let host: RunningHost | undefined;
let attacker: AttackerServer | undefined;

test.beforeEach(async () => {
  attacker = await startAttackerServer();
});

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await attacker?.close();
  attacker = undefined;
});

/**
 * Opens the attacker's page on its own port of 127.0.0.1 and has it set `count` cookies named
 * `bomb-<n>`, of 4,000 bytes each (name and value), for 127.0.0.1 and every path.
 *
 * @returns the names the browser now holds for the host's origin.
 */
async function dropBomb(context: BrowserContext, count: number, hostOrigin: string) {
  if (attacker === undefined) throw new Error("The attacker's server did not start.");
  const page = await context.newPage();
  await page.goto(attacker.url);
  await page.evaluate((count) => {
    for (let index = 0; index < count; index += 1) {
      const name = `bomb-${index}`;
      document.cookie = `${name}=${"x".repeat(4000 - name.length - 1)}; Path=/`;
    }
  }, count);
  await page.close();
  // The cookies are the host's too: same name, another port.
  return (await context.cookies(hostOrigin))
    .map((cookie) => cookie.name)
    .filter((name) => name.startsWith("bomb-"));
}

test("under five 4 KB cookies from a page on another port, the page loads, the socket connects and a chat works", async ({
  page,
  context,
}) => {
  host = await startHost();
  const names = await dropBomb(context, 5, host.origin);
  expect(names).toHaveLength(5);
  await signIn(page, host);
  const { reply, card } = await openCard(page, '/call open-notes {"text":"Buy milk"}');
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue("Buy milk");
  await expect(reply).toContainText("open-notes returned:");
  // A reload sends the bomb with the page request and the socket's upgrade again.
  await page.reload();
  await expectChatReady(page);
});

test("over the limit, the page names the cookies to clear, and clearing them opens the chat again", async ({
  page,
  context,
}) => {
  host = await startHost();
  await signIn(page, host);
  // 20 × 4 KB: over the 64 KiB the host reads.
  const names = await dropBomb(context, 20, host.origin);
  expect(names).toHaveLength(20);
  const refused = await page.goto(`${host.origin}/`);
  expect(refused?.status()).toBe(431);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Too many cookies for 127.0.0.1",
  );
  // Every one of them by name and size, as the page sees them.
  const visible = page.getByTestId("visible-cookies").getByRole("listitem");
  await expect(visible).toHaveCount(20);
  for (const name of names)
    await expect(visible.filter({ hasText: `${name} (3.9 KiB)` })).toHaveCount(1);
  // Also the ones the server read itself (some of them: the part it read).
  await expect(page.getByTestId("seen-cookies")).toContainText("bomb-");

  await page.getByRole("button", { name: "Clear these cookies" }).click();
  await expect(page.getByRole("status")).toHaveText("Cleared. Reload this page to open the chat.");
  // The host's own cookie is HttpOnly: still there, so no new sign-in is needed.
  await page.reload();
  await expectChatReady(page);
});
