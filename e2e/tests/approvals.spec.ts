// The approval dialog, end to end: the Tasks view's "Delete all tasks" calls the app-only
// `delete-all-tasks`, which declares `destructiveHint: true`, so the default policy asks the
// person. Each answer must do what it says, and the server's own count of tool calls shows
// whether a call reached it.
import { expect, test, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";
import { watchSocketFrames, type SocketFrames } from "../support/socket-frames";
import { addTask, expectDeleted, expectWaiting, pressDeleteAll } from "../support/tasks-view";

const deleteCalls = "tasks/delete-all-tasks";

let host: RunningHost | undefined;
let frames: SocketFrames;

test.beforeEach(async ({ page }) => {
  host = await startHost();
  frames = watchSocketFrames(page);
  await signIn(page, host);
});

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function running(): RunningHost {
  if (host === undefined) throw new Error("The host did not start.");
  return host;
}

async function openTasks(page: Page): Promise<Locator> {
  const { card } = await openCard(page, "/call show-tasks");
  await expect(viewOf(card).getByTestId("task-status")).toHaveText(
    /^The task list is open \(.+\)\.$/,
  );
  return card;
}

/**
 * Waits for the dialog to ask about `delete-all-tasks`, checks what it shows and that the view
 * waits for the answer.
 */
async function expectAsked(page: Page, view: FrameLocator): Promise<Locator> {
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("approval-tool")).toHaveText("delete-all-tasks");
  await expect(dialog.getByTestId("approval-card-title")).toHaveText("Show tasks");
  await expect(dialog.getByTestId("badge-destructive")).toBeVisible();
  await expect(dialog.getByTestId("approval-arguments")).toHaveText("{}");
  await expectWaiting(view);
  return dialog;
}

test("refusing with a reason shows it in the view and the call never reaches the server", async ({
  page,
}) => {
  const host = running();
  const card = await openTasks(page);
  const view = viewOf(card);
  await addTask(card, "Water the plants");

  await pressDeleteAll(card);
  const dialog = await expectAsked(page, view);
  await dialog.getByTestId("approval-reason").fill("Not today, the plants still need water");
  await dialog.getByTestId("approval-refuse").click();
  await expect(dialog).toHaveCount(0);

  await expect(view.getByTestId("task-error")).toHaveText("Not today, the plants still need water");
  await expect(view.getByTestId("task-status")).toHaveText("Nothing changed.");
  await expect(view.getByTestId("task-item")).toHaveText(["Water the plants"]);
  expect((await host.toolCalls())[deleteCalls]).toBeUndefined();
  expect((await host.toolCalls())["tasks/add-task"]).toBe(1);
});

test("allow once asks again next time; allow for this card stops asking on that card only", async ({
  page,
}) => {
  const host = running();
  const card = await openTasks(page);
  const view = viewOf(card);

  await addTask(card, "First");
  await pressDeleteAll(card);
  await (await expectAsked(page, view)).getByTestId("approval-allow-once").click();
  await expectDeleted(view);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(1);

  // Once means once: the next delete on the same card asks again.
  await addTask(card, "Second");
  await pressDeleteAll(card);
  await (await expectAsked(page, view)).getByTestId("approval-allow-card").click();
  await expectDeleted(view);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(2);
  expect(frames.countReceived("approval:request")).toBe(2);

  // For this card: the call goes through with nobody answering (it would wait otherwise).
  await addTask(card, "Third");
  await pressDeleteAll(card);
  await expectDeleted(view);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(3);
  expect(frames.countReceived("approval:request")).toBe(2);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);

  // The grant was for that card: another Tasks card in the same conversation is asked about.
  const otherCard = await openTasks(page);
  const other = viewOf(otherCard);
  await addTask(otherCard, "Fourth");
  await pressDeleteAll(otherCard);
  await (await expectAsked(page, other)).getByTestId("approval-allow-once").click();
  await expectDeleted(other);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(4);
  expect(frames.countReceived("approval:request")).toBe(3);
});

test("allow for this conversation lets another card of the conversation through", async ({
  page,
}) => {
  const host = running();
  const firstCard = await openTasks(page);
  const first = viewOf(firstCard);
  await addTask(firstCard, "First");
  await pressDeleteAll(firstCard);
  await (await expectAsked(page, first)).getByTestId("approval-allow-conversation").click();
  await expectDeleted(first);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(1);

  const secondCard = await openTasks(page);
  const second = viewOf(secondCard);
  await addTask(secondCard, "Second");
  await pressDeleteAll(secondCard);
  await expectDeleted(second);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(2);
  expect(frames.countReceived("approval:request")).toBe(1);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
});

test("several questions at once wait in a queue and each gets its own answer", async ({ page }) => {
  const host = running();
  const firstCard = await openTasks(page);
  const secondCard = await openTasks(page);
  const first = viewOf(firstCard);
  const second = viewOf(secondCard);
  await addTask(firstCard, "One");
  await addTask(secondCard, "Two");

  await pressDeleteAll(firstCard);
  const dialog = await expectAsked(page, first);
  // The dialog is modal for the person, but a view keeps running: the second card's button is
  // pressed by script, as its own code could, while the first question is open.
  await second.getByTestId("task-delete-all").dispatchEvent("click");
  await expect(dialog.getByTestId("approval-counter")).toHaveText("1 of 2");
  await expectWaiting(second);

  await dialog.getByTestId("approval-reason").fill("Not the first one");
  await dialog.getByTestId("approval-refuse").click();
  await expect(first.getByTestId("task-error")).toHaveText("Not the first one");
  // The second question is still there, now alone.
  await expectAsked(page, second);
  await expect(page.getByTestId("approval-counter")).toHaveCount(0);
  await page.getByTestId("approval-allow-once").click();
  await expectDeleted(second);
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  await expect.poll(async () => (await host.toolCalls())[deleteCalls]).toBe(1);
  expect(frames.countReceived("approval:request")).toBe(2);
});
