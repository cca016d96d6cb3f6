// A server's questions to the person, end to end in Chromium: the suite's asker app
// (support/fixtures/asker-app, over stdio) asks the person their name in a form (`ask_person`)
// or to open a page (`ask_to_open`) while the model's tool call runs. The dialog names the
// server; what the person answers reaches the server, which says so in the tool's result; a
// question nobody answers is cancelled and the page says so.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { replies, signIn } from "../support/chat-page";
import { startHost, type HostOptions, type RunningHost } from "../support/host";

const askerSource = "./fixtures/asker-app";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

async function started(page: Page, options: HostOptions = {}): Promise<RunningHost> {
  host = await startHost({ servers: [askerSource], ...options });
  await signIn(page, host);
  return host;
}

/** Sends a message calling `tool` and waits for the server's question. */
async function ask(page: Page, tool: string): Promise<{ dialog: Locator; before: number }> {
  const before = await replies(page).count();
  const composer = page.getByTestId("composer-input");
  await composer.fill(`/call ${tool} {}`);
  await composer.press("Enter");
  const dialog = page.getByTestId("elicitation-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("elicitation-server")).toHaveText(askerSource);
  return { dialog, before };
}

/** The finished reply after the first `before`. */
async function replyAfter(page: Page, before: number): Promise<Locator> {
  const reply = replies(page).nth(before);
  await expect(reply).toHaveAttribute("data-status", "complete");
  return reply;
}

test("a form is checked before it is sent, and the accepted answer reaches the server", async ({
  page,
}) => {
  await started(page);
  const { dialog, before } = await ask(page, "ask_person");
  await expect(dialog.getByTestId("elicitation-message")).toHaveText("What should I call you?");
  // The focus is on the dialog, not on Submit.
  await expect(dialog).toBeFocused();

  await dialog.getByTestId("elicitation-submit").click();
  await expect(dialog.getByTestId("elicitation-problem-name")).toHaveText(
    'Fill in "Your name"; it is required.',
  );
  await expect(dialog).toBeVisible();

  await dialog.getByLabel("Your name").fill("Ada");
  await dialog.getByLabel("Send me the newsletter").check();
  await dialog.getByTestId("elicitation-submit").click();
  await expect(dialog).toHaveCount(0);
  await expect(await replyAfter(page, before)).toContainText("Hello, Ada (newsletter)!");
});

test("declining and cancelling are passed on to the server", async ({ page }) => {
  await started(page);
  const declined = await ask(page, "ask_person");
  await declined.dialog.getByTestId("elicitation-decline").click();
  await expect(declined.dialog).toHaveCount(0);
  await expect(await replyAfter(page, declined.before)).toContainText("The person declined.");

  const cancelled = await ask(page, "ask_person");
  await page.keyboard.press("Escape");
  await expect(cancelled.dialog).toHaveCount(0);
  await expect(await replyAfter(page, cancelled.before)).toContainText("The person cancelled.");
});

test("a question left unanswered is cancelled, and the page says so", async ({ page }) => {
  // Long enough that a busy machine still shows the dialog before it times out (the spec sees
  // it first), short enough to keep the test quick.
  await started(page, { env: { ELICITATION_TIMEOUT: "4" } });
  const { dialog, before } = await ask(page, "ask_person");
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  await expect(
    page.getByText(
      `The question from ${askerSource} went unanswered and was cancelled; send your request again to be asked again.`,
    ),
  ).toBeVisible();
  await expect(await replyAfter(page, before)).toContainText("The person cancelled.");
});

test("a page to open shows its address and opens only on Open", async ({ page, context }) => {
  await started(page);
  const { dialog, before } = await ask(page, "ask_to_open");
  await expect(dialog.getByTestId("elicitation-url")).toHaveText(
    "https://example.com/sign-in?from=asker",
  );
  await expect(dialog.getByTestId("elicitation-url-host")).toHaveText("example.com");
  // Nothing opened by itself.
  expect(context.pages()).toHaveLength(1);

  // The new tab is not let out to the network: only that it opened, with no opener, matters.
  await context.route("https://example.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<p>Sign in</p>" }),
  );
  const opened = context.waitForEvent("page");
  await dialog.getByTestId("elicitation-open").click();
  const tab = await opened;
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await expect(dialog).toHaveCount(0);
  await expect(await replyAfter(page, before)).toContainText("The person accepted.");
});
