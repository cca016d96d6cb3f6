/// <reference lib="dom" />
// The Tasks page. Every change goes through the app's own tools (`add-task`, `delete-all-tasks`,
// `list-tasks`) with `tools/call`, which the host checks first: deleting everything is destructive,
// so the default policy asks the person, and a refusal comes back as an error shown inline. After
// each change the page reports the list to the host as model context.
import { App } from "@modelcontextprotocol/ext-apps";
import { byTestId } from "../../view-kit/dom";
import { applyHostContext } from "../../view-kit/host-context";
import { requestErrorMessage, resultText, type ToolResult } from "../../view-kit/messages";
import { StatusLine } from "../../view-kit/status-line";
import { taskCountPhrase, tasksReport, type Task } from "../task-list";

const form = byTestId("task-form", HTMLFormElement);
const input = byTestId("task-input", HTMLInputElement);
const addButton = byTestId("task-add", HTMLButtonElement);
const list = byTestId("task-list", HTMLUListElement);
const empty = byTestId("task-empty", HTMLElement);
const count = byTestId("task-count", HTMLElement);
const errorBox = byTestId("task-error", HTMLElement);
const refreshButton = byTestId("task-refresh", HTMLButtonElement);
const deleteAllButton = byTestId("task-delete-all", HTMLButtonElement);
const status = new StatusLine(byTestId("task-status", HTMLElement));

const app = new App({ name: "tasks", version: "1.0.0" }, {}, { autoResize: true });

let tasks: Task[] = [];
let connected = false;
let busy = false;
let resultReceived = false;

function isTask(value: unknown): value is Task {
  const candidate = value as Partial<Task> | null;
  return typeof candidate?.id === "number" && typeof candidate.title === "string";
}

/** The list a tool result carries, or `undefined` when it carries none. */
function tasksFrom(result: ToolResult): Task[] | undefined {
  const value = (result.structuredContent as Record<string, unknown> | undefined)?.["tasks"];
  return Array.isArray(value) ? value.filter(isTask) : undefined;
}

function refreshControls(): void {
  const ready = connected && !busy;
  input.disabled = !connected;
  addButton.disabled = !ready || input.value.trim() === "";
  refreshButton.disabled = !ready;
  deleteAllButton.disabled = !ready || tasks.length === 0;
}

function render(next: Task[]): void {
  tasks = next;
  list.replaceChildren(
    ...tasks.map((task) => {
      const item = document.createElement("li");
      item.dataset["testid"] = "task-item";
      item.dataset["taskId"] = String(task.id);
      item.textContent = task.title;
      return item;
    }),
  );
  empty.hidden = tasks.length > 0;
  count.textContent = taskCountPhrase(tasks.length);
  refreshControls();
}

async function reportTasks(): Promise<void> {
  if (!connected || app.getHostCapabilities()?.updateModelContext === undefined) return;
  const report = tasksReport(tasks);
  try {
    await app.updateModelContext({
      content: [{ type: "text", text: report.text }],
      structuredContent: report.structuredContent,
    });
  } catch (error) {
    status.show(
      `The assistant could not be told about the tasks: ${requestErrorMessage(error)}`,
      "error",
    );
  }
}

/**
 * Calls one of the app's tools and shows the outcome: the new list, or the error inline. A
 * refusal by the host (its on_app_call check, or the person) rejects with the host's text.
 */
async function callTasksTool(
  name: string,
  toolArguments: Record<string, unknown>,
  pending: string,
): Promise<boolean> {
  busy = true;
  errorBox.textContent = "";
  status.show(pending);
  refreshControls();
  try {
    const result = await app.callServerTool({ name, arguments: toolArguments });
    if (result.isError === true) {
      errorBox.textContent = resultText(result, `The tool "${name}" failed.`);
      status.show("Nothing changed.", "error");
      return false;
    }
    const next = tasksFrom(result);
    if (next !== undefined) render(next);
    status.show(resultText(result, "Done."), "success");
    void reportTasks();
    return true;
  } catch (error) {
    errorBox.textContent = requestErrorMessage(error);
    status.show("Nothing changed.", "error");
    return false;
  } finally {
    busy = false;
    refreshControls();
  }
}

app.ontoolinput = () => {
  status.show("Opening the task list…");
};

app.ontoolresult = (result) => {
  resultReceived = true;
  if (result.isError === true) {
    errorBox.textContent = resultText(result, "The task list could not be opened.");
    return;
  }
  render(tasksFrom(result) ?? []);
  status.show(resultText(result, "The task list is open."));
  void reportTasks();
};

app.ontoolcancelled = (params) => {
  status.show(
    params.reason === undefined
      ? "Opening the task list was cancelled."
      : `Opening the task list was cancelled: ${params.reason}`,
    "error",
  );
};

app.onhostcontextchanged = (context) => applyHostContext(context);

app.onteardown = () => ({});

input.addEventListener("input", refreshControls);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const title = input.value.trim();
  if (title === "" || busy) return;
  if (await callTasksTool("add-task", { title }, "Adding…")) {
    input.value = "";
    refreshControls();
    input.focus();
  }
});

refreshButton.addEventListener("click", () => {
  void callTasksTool("list-tasks", {}, "Refreshing…");
});

deleteAllButton.addEventListener("click", () => {
  void callTasksTool("delete-all-tasks", {}, "Deleting every task (the host may ask you first)…");
});

async function start(): Promise<void> {
  try {
    await app.connect();
  } catch (error) {
    status.show(`Could not connect to the host: ${requestErrorMessage(error)}`, "error");
    return;
  }
  connected = true;
  applyHostContext(app.getHostContext());
  refreshControls();
  if (resultReceived) void reportTasks();
  else status.show("Connected. Waiting for the task list…");
}

render([]);
void start();
