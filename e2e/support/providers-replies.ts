// Replies of a real provider's client as the page shows them: a failed reply with its sentence
// and Retry button, a retried one, and the token footer. Every wait is on what the page shows.
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { ProviderStandIn, RecordedRequest } from "@mcp-chat-host/testing";
import { replies, userMessages, waitForReply } from "./chat-page";

/**
 * Types a message and sends it with Enter, without waiting for the reply to end.
 *
 * @param page - the chat page.
 * @param text - the message.
 * @returns the reply that follows it (the next one on the page).
 */
export async function sendWithoutWaiting(page: Page, text: string): Promise<Locator> {
  const before = await replies(page).count();
  const composer = page.getByTestId("composer-input");
  await composer.fill(text);
  await composer.press("Enter");
  await expect(replies(page)).toHaveCount(before + 1);
  return replies(page).nth(before);
}

/**
 * Waits until a reply failed with exactly `sentence` (after "This reply failed: "), written for a
 * person: one line, no JSON, no key, and a Retry button beside it.
 *
 * @param reply - the reply's `message` element.
 * @param sentence - what the host says went wrong.
 * @param key - the API key the host used, which must not show.
 */
export async function expectFailedReply(
  reply: Locator,
  sentence: string,
  key: string,
): Promise<void> {
  await expect(reply).toHaveAttribute("data-status", "error");
  const note = reply.getByTestId("message-error");
  await expect(note).toHaveText(`This reply failed: ${sentence}`);
  const text = await note.innerText();
  expect(text).not.toMatch(/[{}[\]\n]/);
  expect(text).not.toContain(key);
  await expect(reply.getByTestId("retry-button")).toBeEnabled();
}

/**
 * Presses Retry on the chat's last reply and waits until the new reply is complete. The turn
 * runs again without a new message of the person's.
 *
 * @param page - the chat page.
 * @param failed - the reply that failed or was stopped (the last one).
 * @returns the new reply.
 */
export async function retryReply(page: Page, failed: Locator): Promise<Locator> {
  const before = await replies(page).count();
  const sent = await userMessages(page).count();
  await failed.getByTestId("retry-button").click();
  const reply = await waitForReply(page, before);
  await expect(userMessages(page)).toHaveCount(sent);
  await expect(failed.getByTestId("retry-button")).toHaveCount(0);
  return reply;
}

/**
 * The last request the stand-in received, once it is over (answered, cut or closed).
 *
 * @param standIn - the stand-in.
 * @returns the request.
 */
export async function lastSettledRequest(standIn: ProviderStandIn): Promise<RecordedRequest> {
  const request = standIn.requests.at(-1);
  if (request === undefined) throw new Error("The stand-in received no request.");
  await request.settled;
  return request;
}

/**
 * Attaches a picture of a page shared by a describe's tests to the current test when it failed
 * (Playwright's own screenshot covers only the test's `page` fixture). Call it in `afterEach`.
 *
 * @param page - the shared page.
 */
export async function attachPageOnFailure(page: Page | undefined): Promise<void> {
  const info = test.info();
  if (page === undefined || page.isClosed() || info.status === info.expectedStatus) return;
  await info.attach("shared-page", { body: await page.screenshot(), contentType: "image/png" });
}
