// The proxy URL the host hands its page is signed. Anyone who reaches the sandbox's port (any
// local program, any page on another loopback port) could otherwise edit a card's proxy URL and
// get, with no cookie, a view URL the sandbox signed for a policy of their choosing. Here the
// attacker takes a real card's proxy URL, as a page on another port or a local program could,
// and tries it changed and unsigned, from Node and in Chromium.
import { expect, test, type Page } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";
import { fetchLocal } from "../support/local-fetch";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** Opens the Notes card and returns its proxy URL, as the page put it in the card's iframe. */
async function notesProxyUrl(page: Page): Promise<URL> {
  const { card } = await openCard(page, `/call open-notes ${JSON.stringify({ text: "Buy milk" })}`);
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue("Buy milk");
  const source = await card.getByTestId("card-iframe").getAttribute("src");
  if (source === null) throw new Error("The card's iframe has no src.");
  return new URL(source);
}

/** A CSP that lets the view reach anything it names: what an attacker would ask for. */
const looserCsp = Buffer.from(
  JSON.stringify({
    connectDomains: ["https://evil.example"],
    resourceDomains: ["https://evil.example"],
  }),
).toString("base64url");

test("an altered or unsigned proxy URL gets 403 and no view URL; the honest card still opens", async ({
  page,
  context,
}) => {
  host = await startHost();
  await signIn(page, host);
  const honest = await notesProxyUrl(page);
  // The honest card opened in Chromium (above), and its URL still serves the proxy page.
  const served = await fetchLocal(honest.toString());
  expect(served.status).toBe(200);
  expect(served.body).toContain('<meta name="mcp-view-url"');

  const altered = new URL(honest);
  altered.searchParams.set("csp", looserCsp);
  const otherPage = new URL(honest);
  otherPage.searchParams.set("host", "http://127.0.0.1:1");
  const unsigned = new URL(honest);
  unsigned.searchParams.delete("sig");
  unsigned.searchParams.delete("exp");
  unsigned.searchParams.set("csp", looserCsp);
  // From Node: no cookie, no page, only the sandbox's port.
  for (const url of [altered, otherPage, unsigned]) {
    const answer = await fetchLocal(url.toString());
    expect(answer.status, url.search).toBe(403);
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.body).toMatch(/^not_signed: /);
    // No view URL was minted.
    expect(answer.body).not.toContain("/view?");
    expect(answer.body).not.toContain("mcp-view-url");
  }

  // In Chromium, opened as a page would open it: a sentence, no proxy.
  const attacker = await context.newPage();
  const response = await attacker.goto(altered.toString());
  expect(response?.status()).toBe(403);
  await expect(attacker.locator("body")).toContainText("not_signed: this sandbox address");
  expect(attacker.frames()).toHaveLength(1);

  // The person's card is untouched: it still shows and the chat page still holds it.
  await expect(viewOf(page.getByTestId("card").first()).getByTestId("notes-text")).toHaveValue(
    "Buy milk",
  );
});
