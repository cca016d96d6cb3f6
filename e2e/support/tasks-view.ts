// The Tasks example's view as the specs use it: add a task, ask to delete them all. Its
// `delete-all-tasks` tool is destructive, so the default policy asks the person first.
import { expect, type FrameLocator, type Locator } from "@playwright/test";
import { settledViewOf } from "./card-frames";

/**
 * Adds a task through the view's form and waits until the list shows it. The press waits until
 * no card frame moves: a click is aimed at page coordinates, and one sent while the conversation
 * still scrolls to a card that just grew can land on the page beside the view.
 *
 * @param card - the Tasks card.
 * @param title - the task.
 */
export async function addTask(card: Locator, title: string): Promise<void> {
  const view = await settledViewOf(card);
  await view.getByTestId("task-input").fill(title);
  await view.getByTestId("task-add").click();
  await expect(view.getByTestId("task-item").filter({ hasText: title })).toHaveCount(1);
  await expect(view.getByTestId("task-input")).toHaveValue("");
}

/**
 * Presses "Delete all tasks", once no card frame moves (see addTask). When the host asks the
 * person first, the view waits, saying so; when it does not, the delete may already be done by
 * the time this returns.
 *
 * @param card - the Tasks card.
 */
export async function pressDeleteAll(card: Locator): Promise<void> {
  const view = await settledViewOf(card);
  const status = view.getByTestId("task-status");
  const before = await status.textContent();
  await view.getByTestId("task-delete-all").click();
  // The view always changes its status on a press.
  await expect(status).not.toHaveText(before ?? "");
}

/**
 * Checks that the view is still waiting for its delete (the host is asking the person).
 *
 * @param view - the Tasks view.
 */
export async function expectWaiting(view: FrameLocator): Promise<void> {
  await expect(view.getByTestId("task-status")).toHaveText(
    "Deleting every task (the host may ask you first)…",
  );
  await expect(view.getByTestId("task-delete-all")).toBeDisabled();
}

/**
 * Waits until the view shows the list emptied by a delete that went through.
 *
 * @param view - the Tasks view.
 */
export async function expectDeleted(view: FrameLocator): Promise<void> {
  await expect(view.getByTestId("task-status")).toHaveText(/^Deleted \d+ tasks?\.$/);
  await expect(view.getByTestId("task-item")).toHaveCount(0);
  await expect(view.getByTestId("task-empty")).toBeVisible();
}
