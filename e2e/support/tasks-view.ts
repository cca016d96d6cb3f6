// The Tasks example's view as the specs use it: add a task, ask to delete them all. Its
// `delete-all-tasks` tool is destructive, so the default policy asks the person first.
import { expect, type FrameLocator } from "@playwright/test";

/**
 * Adds a task through the view's form and waits until the list shows it.
 *
 * @param view - the Tasks view.
 * @param title - the task.
 */
export async function addTask(view: FrameLocator, title: string): Promise<void> {
  await view.getByTestId("task-input").fill(title);
  // As in pressDeleteAll: a click sent while the conversation still scrolls can miss the frame;
  // press again (at most three times) while the box still holds the title (nothing was added).
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await view.getByTestId("task-add").click();
    try {
      await expect(view.getByTestId("task-input")).toHaveValue("", { timeout: 3_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await expect(view.getByTestId("task-item").filter({ hasText: title })).toHaveCount(1);
  await expect(view.getByTestId("task-input")).toHaveValue("");
}

/**
 * Presses "Delete all tasks". When the host asks the person first, the view waits, saying so;
 * when it does not, the delete may already be done by the time this returns.
 *
 * @param view - the Tasks view.
 */
export async function pressDeleteAll(view: FrameLocator): Promise<void> {
  const status = view.getByTestId("task-status");
  const before = await status.textContent();
  // A view is an out-of-process frame: a click sent while the conversation still scrolls to a
  // card that just grew can land on the page beside it, so the press is repeated (at most three
  // times) until the view shows it began. The view always changes its status on a press.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await view.getByTestId("task-delete-all").click();
    try {
      await expect(status).not.toHaveText(before ?? "", { timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
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
