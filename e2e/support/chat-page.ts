// The chat page as the end-to-end specs drive it: sign in, send a message, wait for the reply,
// start a conversation. Every wait is on something the page shows, bounded by Playwright's
// expect timeout; nothing sleeps.
import { expect, type Locator, type Page } from "@playwright/test";
import type { RunningHost } from "./host";

/**
 * Signs the page in with the host's one-time URL and waits until the chat is usable: the server
 * redirected to `/`, the socket said hello and the composer is on screen.
 *
 * @param page - a page of a fresh browser context (no cookie yet).
 * @param host - the running host; its sign-in URL works once.
 * @param hash - a conversation hash to open after signing in (`#/c/<id>`), if any.
 */
export async function signIn(page: Page, host: RunningHost, hash = ""): Promise<void> {
  await page.goto(host.signIn);
  await expect(page).toHaveURL(`${host.origin}/`);
  if (hash !== "") await page.goto(`${host.origin}/${hash}`);
  await expectChatReady(page);
}

/**
 * Waits until the page shows a connected chat: one chat column and its composer.
 *
 * @param page - the chat page.
 */
export async function expectChatReady(page: Page): Promise<void> {
  await expect(page.getByTestId("chat-column")).toHaveCount(1);
  await expect(page.getByTestId("composer-input")).toBeEditable();
  await expect(page.getByTestId("connection-banner")).toHaveCount(0);
}

/** The person's messages, oldest first. */
export function userMessages(page: Page): Locator {
  return page.locator('[data-testid="message"][data-role="user"]');
}

/** The replies, oldest first. */
export function replies(page: Page): Locator {
  return page.locator('[data-testid="message"][data-role="assistant"]');
}

/**
 * Types a message in the composer and sends it with Enter, then waits until the reply to it is
 * complete (the page shows one more finished reply than before).
 *
 * @param page - the chat page.
 * @param text - the message.
 * @returns the reply's `message` element.
 */
export async function sendMessage(page: Page, text: string): Promise<Locator> {
  const before = await replies(page).count();
  const composer = page.getByTestId("composer-input");
  await composer.fill(text);
  await composer.press("Enter");
  return waitForReply(page, before);
}

/**
 * Waits for the reply after the first `before` replies to be complete.
 *
 * @param page - the chat page.
 * @param before - how many replies the page showed before the message was sent.
 * @returns the new reply's `message` element.
 */
export async function waitForReply(page: Page, before: number): Promise<Locator> {
  const reply = replies(page).nth(before);
  await expect(reply).toHaveAttribute("data-status", "complete");
  return reply;
}

/**
 * Starts a new conversation from the sidebar and waits until the page shows it empty.
 *
 * @param page - the chat page (sidebar open, as it is on a wide window).
 */
export async function newConversation(page: Page): Promise<void> {
  const hashBefore = new URL(page.url()).hash;
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("empty-chat")).toBeVisible();
  await expect.poll(() => new URL(page.url()).hash).not.toBe(hashBefore);
}

/**
 * The open conversation's hash (`#/c/<id>`), once the page has written it to the address bar.
 *
 * @param page - the chat page.
 * @returns the hash.
 */
export async function conversationHash(page: Page): Promise<string> {
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/c\/.+/);
  return new URL(page.url()).hash;
}
