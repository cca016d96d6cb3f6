// Page helpers for the specs that drive real MCP servers from npm through the chat: sign in, send
// a message and wait for its reply, reach a card's view (two frames deep), answer the approval
// dialog, and stand in for the web site a view links to (the tests use no network).
import {
  expect,
  type BrowserContext,
  type FrameLocator,
  type Locator,
  type Page,
} from "@playwright/test";
import type { RunningHost } from "./host";

/** The answers of the approval dialog, by the test id of their button. */
export type ApprovalAnswer = "allow-once" | "allow-card" | "allow-conversation";

/**
 * Opens the chat page through the host's one-time sign-in URL and waits for the composer.
 *
 * @param page - a page of a fresh browser context.
 * @param host - the running host.
 */
export async function openChat(page: Page, host: RunningHost): Promise<void> {
  await page.goto(host.signIn);
  await expect(page.getByTestId("composer-input")).toBeVisible();
}

/**
 * Sends a message through the composer (Enter) and waits until the reply that follows it is no
 * longer streaming.
 *
 * @param page - the chat page.
 * @param text - what the person types.
 * @returns the reply's message body (`message-assistant`).
 */
export async function sendChatMessage(page: Page, text: string): Promise<Locator> {
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  const before = await replies.count();
  const composer = page.getByTestId("composer-input");
  await composer.fill(text);
  await composer.press("Enter");
  const reply = replies.nth(before);
  await expect(reply).toHaveAttribute("data-status", "complete");
  return reply.getByTestId("message-assistant");
}

/**
 * The view of a card: the inner frame (the view's own document, a srcdoc iframe) inside the
 * card's outer frame (the sandbox proxy on the source's origin).
 *
 * @param page - the chat page.
 * @param index - which card, in page order.
 * @returns the view's frame locator.
 */
export function cardView(page: Page, index = 0): FrameLocator {
  return page.getByTestId("card-iframe").nth(index).contentFrame().locator("iframe").contentFrame();
}

/**
 * Answers the approval dialog that is showing: checks it asks about `tool`, presses the answer,
 * and waits until that request's dialog is gone (the next queued one may follow).
 *
 * @param page - the chat page.
 * @param tool - the tool the dialog must name.
 * @param answer - the button to press.
 */
export async function answerApproval(
  page: Page,
  tool: string,
  answer: ApprovalAnswer,
): Promise<void> {
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog.getByTestId("approval-tool")).toHaveText(tool);
  const approvalId = await dialog.getAttribute("data-approval-id");
  expect(approvalId).not.toBeNull();
  await dialog.getByTestId(`approval-${answer}`).click();
  await expect(
    page.locator(`[data-testid="approval-dialog"][data-approval-id="${approvalId}"]`),
  ).toHaveCount(0);
}

/**
 * Answers the links of a web site inside the browser, so a page a view opens loads without the
 * network. Every address under `origin` gets a small HTML page.
 *
 * @param context - the browser context the tabs open in.
 * @param origin - e.g. `https://modelcontextprotocol.io`.
 */
export async function standInForSite(context: BrowserContext, origin: string): Promise<void> {
  await context.route(`${origin}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>Stand-in page</title><p>Opened by a view.</p>",
    }),
  );
}

/**
 * Presses something that opens a new tab and returns that tab once it has loaded.
 *
 * @param context - the browser context.
 * @param press - clicks the control that opens the tab.
 * @returns the new page.
 */
export async function newTabFrom(
  context: BrowserContext,
  press: () => Promise<void>,
): Promise<Page> {
  const opening = context.waitForEvent("page", { timeout: 15_000 });
  await press();
  const tab = await opening;
  await tab.waitForLoadState("domcontentloaded");
  return tab;
}

/**
 * Reads a tool's call count from the host's metrics (0 when it was never called).
 *
 * @param host - the running host.
 * @param key - `source/tool`.
 */
export async function callsOf(host: RunningHost, key: string): Promise<number> {
  return (await host.toolCalls())[key] ?? 0;
}
