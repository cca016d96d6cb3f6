// The task list of one Tasks server instance and the texts about it, as plain functions over the
// instance's state. The page imports `tasksReport` too, so the model context it reports and the
// tools' own texts are written in one place.

/** One task. */
export interface Task {
  /** Unique within the list, increasing in the order tasks were added. */
  id: number;
  /** What to do. */
  title: string;
}

/** The most tasks a list holds; `add-task` refuses more. */
export const TASK_LIMIT = 100;

/** The most characters of a task's title. */
export const TASK_TITLE_LIMIT = 200;

/** How many tasks the report lists by title; the rest are counted. */
export const REPORT_TASK_LIMIT = 10;

/** A local error of the task list, with a stable `code` and a sentence for the person. */
class TaskListError extends Error {
  override readonly name = "TaskListError";

  /**
   * @param code - `empty_title` or `list_full`.
   * @param message - what went wrong and what to do next.
   */
  constructor(
    readonly code: "empty_title" | "list_full",
    message: string,
  ) {
    super(message);
  }
}

interface TaskState {
  tasks: Task[];
  nextId: number;
}

function taskState(state: Record<string, unknown>): TaskState {
  const existing = state["tasks"] as TaskState | undefined;
  if (existing !== undefined) return existing;
  const created: TaskState = { tasks: [], nextId: 1 };
  state["tasks"] = created;
  return created;
}

/**
 * The tasks kept in a server instance's state.
 *
 * @returns a copy of the tasks, oldest first.
 */
export function listTasks(state: Record<string, unknown>): Task[] {
  return taskState(state).tasks.map((task) => ({ ...task }));
}

/**
 * Adds a task at the end of the list.
 *
 * @param title - what to do; surrounding whitespace is removed.
 * @returns the new task.
 * @throws {TaskListError} `empty_title` for a blank title, `list_full` at {@link TASK_LIMIT} tasks.
 */
export function addTask(state: Record<string, unknown>, title: string): Task {
  const trimmed = title.trim();
  if (trimmed === "") {
    throw new TaskListError("empty_title", "A task needs a title; type what to do, then add it.");
  }
  const list = taskState(state);
  if (list.tasks.length >= TASK_LIMIT) {
    throw new TaskListError(
      "list_full",
      `The list is full (${TASK_LIMIT} tasks); delete the tasks first, then add new ones.`,
    );
  }
  const task: Task = { id: list.nextId, title: trimmed };
  list.nextId += 1;
  list.tasks.push(task);
  return { ...task };
}

/**
 * Deletes every task.
 *
 * @returns how many tasks were deleted.
 */
export function deleteAllTasks(state: Record<string, unknown>): number {
  const list = taskState(state);
  const count = list.tasks.length;
  list.tasks = [];
  return count;
}

/**
 * Says how many tasks there are: "no tasks", "1 task", "3 tasks".
 *
 * @returns the phrase.
 */
export function taskCountPhrase(count: number): string {
  if (count === 0) return "no tasks";
  return count === 1 ? "1 task" : `${count} tasks`;
}

/**
 * The report the page sends as model context: `The task list has N tasks:` and the first
 * {@link REPORT_TASK_LIMIT} titles, or `The task list is empty.`.
 *
 * @returns the text block and the structured state (`count`, `titles`).
 */
export function tasksReport(tasks: readonly Task[]): {
  text: string;
  structuredContent: { count: number; titles: string[] };
} {
  const titles = tasks.map((task) => task.title);
  const structuredContent = { count: tasks.length, titles };
  if (tasks.length === 0) return { text: "The task list is empty.", structuredContent };
  const lines = titles.slice(0, REPORT_TASK_LIMIT).map((title) => `- ${title}`);
  const rest = tasks.length - REPORT_TASK_LIMIT;
  if (rest > 0) lines.push(`- and ${rest} more`);
  return {
    text: [`The task list has ${taskCountPhrase(tasks.length)}:`, ...lines].join("\n"),
    structuredContent,
  };
}
