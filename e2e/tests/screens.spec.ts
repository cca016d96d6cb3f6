// Screenshots of the main screens, saved as test artefacts (under e2e/artifacts/, not committed)
// so a reader can see what the person sees. Each is taken after asserting what the screen shows.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { cards, openCard, viewOf } from "../support/card-frames";
import { newConversation, sendMessage, signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";
import { watchSocketFrames } from "../support/socket-frames";
import { addTask, pressDeleteAll } from "../support/tasks-view";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

async function save(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

test("the main screens", async ({ page }, testInfo) => {
  // Long on purpose: one story through every screen, on one host.
  test.setTimeout(120_000);
  host = await startHost();
  await page.emulateMedia({ colorScheme: "light" });
  const frames = watchSocketFrames(page);
  await signIn(page, host);
  const root = page.locator("html");

  // The empty chat, light and dark.
  await expect(root).toHaveAttribute("data-theme", "light");
  await expect(page.getByTestId("empty-chat")).toHaveText(
    "Ask something, or ask for an app. Replies and app cards show here.",
  );
  await expect(page.getByTestId("model-name")).toHaveText("offline");
  await save(page, testInfo, "empty-chat-light");
  await page.getByTestId("theme-toggle").click();
  await expect(root).toHaveAttribute("data-theme", "dark");
  await expect(page.getByTestId("empty-chat")).toBeVisible();
  await save(page, testInfo, "empty-chat-dark");
  await page.getByTestId("theme-toggle").click();
  await expect(root).toHaveAttribute("data-theme", "light");

  // A conversation with two cards.
  const notesCard = (await openCard(page, '/call open-notes {"text":"Buy oat milk\\nCall Ann"}'))
    .card;
  const notes = viewOf(notesCard);
  await expect(notes.getByTestId("notes-words")).toHaveText("5 words");
  const tasksCard = (await openCard(page, "/call show-tasks")).card;
  const tasks = viewOf(tasksCard);
  await addTask(tasksCard, "Water the plants");
  await addTask(tasksCard, "Book the dentist");
  await expect(tasks.getByTestId("task-count")).toHaveText("2 tasks");
  await expect(cards(page)).toHaveCount(2);
  await save(page, testInfo, "conversation-with-cards");

  // The same in the dark theme: the views follow the host's theme.
  await page.getByTestId("theme-toggle").click();
  await expect(root).toHaveAttribute("data-theme", "dark");
  await expect(notes.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(tasks.locator("html")).toHaveAttribute("data-theme", "dark");
  await save(page, testInfo, "conversation-with-cards-dark");
  await page.getByTestId("theme-toggle").click();
  await expect(notes.locator("html")).toHaveAttribute("data-theme", "light");

  // The approval dialog.
  await pressDeleteAll(tasksCard);
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("approval-tool")).toHaveText("delete-all-tasks");
  await expect(dialog.getByTestId("badge-destructive")).toBeVisible();
  await save(page, testInfo, "approval-dialog");
  await dialog.getByTestId("approval-reason").fill("Keeping them");
  await dialog.getByTestId("approval-refuse").click();
  await expect(tasks.getByTestId("task-error")).toHaveText("Keeping them");

  // The context inspector, after a turn that told the model about both apps.
  await frames.acknowledged("card:update-context", "The task list has 2 tasks:");
  const reply = await sendMessage(page, "What do you see?");
  await expect(reply).toContainText("I can see 2 apps:");
  await page.getByTestId("context-inspector-button").click();
  const inspector = page.getByTestId("context-inspector");
  await expect(inspector.getByTestId("context-text")).toContainText("Notes (5 words):");
  await expect(inspector.getByTestId("context-text")).toContainText("- Book the dentist");
  await save(page, testInfo, "context-inspector");
  await inspector.getByTestId("context-inspector-close").click();
  await expect(inspector).toHaveCount(0);

  // A card in full screen.
  await notesCard.getByTestId("card-fullscreen").click();
  await expect(notesCard).toHaveAttribute("data-display-mode", "fullscreen");
  await expect(notes.getByTestId("notes-text")).toHaveValue("Buy oat milk\nCall Ann");
  await save(page, testInfo, "card-fullscreen");
  await page.keyboard.press("Escape");
  await expect(notesCard).toHaveAttribute("data-display-mode", "inline");

  // The sidebar with several conversations, the first one renamed.
  const first = page.getByTestId("conversation-item").first();
  await first.getByTestId("conversation-rename").click();
  await page.getByTestId("conversation-rename-input").fill("Errands");
  await page.getByTestId("conversation-rename-save").click();
  await expect(page.getByTestId("conversation-title")).toHaveText("Errands");
  await newConversation(page);
  await sendMessage(page, "/call show-table");
  await newConversation(page);
  await sendMessage(page, "hello");
  const items = page.getByTestId("conversation-item");
  await expect(items).toHaveCount(3);
  await expect(items.filter({ hasText: "Errands" })).toHaveCount(1);
  // Most recent first; the open one is marked.
  await expect(items.first().getByTestId("conversation-open")).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(items.last()).toContainText("Errands");
  await save(page, testInfo, "sidebar-conversations");
});
