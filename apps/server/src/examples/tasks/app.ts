// The Tasks example: a small task list whose page adds tasks and can delete them all. Its
// destructive tool is what the default on_app_call policy asks the person about, and the page
// shows any refusal inline.
import { McpApp, appTool } from "@mcp-chat-host/host";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { readViewHtml, type ExampleAppOptions } from "../view-file";
import {
  TASK_TITLE_LIMIT,
  addTask,
  deleteAllTasks,
  listTasks,
  taskCountPhrase,
  type Task,
} from "./task-list";

/** The structured result of every Tasks tool: the list after the call. */
const taskListShape = {
  tasks: z.array(z.object({ id: z.number().int(), title: z.string() })),
  count: z.number().int(),
};

function listResult(text: string, tasks: Task[]): CallToolResult {
  return {
    content: [{ type: "text", text }],
    structuredContent: { tasks, count: tasks.length },
  };
}

/**
 * Builds the Tasks app (`tasks`, "Tasks"). Tools, all keeping the list in this server instance:
 * - `show-tasks` (model; shows the page; read-only): opens the list.
 * - `add-task` (app only; not destructive, closed world): adds `{ title }`.
 * - `delete-all-tasks` (app only; destructive): empties the list; the default policy asks the
 *   person before the page's call goes through.
 * - `list-tasks` (app only; read-only): the list, for the page to refresh.
 *
 * Every tool answers with the list after the call as `structuredContent: { tasks, count }`.
 *
 * @param options - where the built page lives.
 * @returns the app; its page is read from `tasks.html` at every resource read.
 */
export function tasksApp(options: ExampleAppOptions = {}): McpApp {
  return new McpApp({
    name: "tasks",
    title: "Tasks",
    version: "1.0.0",
    html: () => readViewHtml("tasks", options.viewsDirectory),
    prefersBorder: true,
    tools: [
      appTool({
        name: "show-tasks",
        title: "Show tasks",
        description:
          "Shows the person's task list in the conversation. They add tasks and clear the list " +
          "there; the number of tasks reaches you as app context.",
        outputSchema: taskListShape,
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (_args, extra) => {
          const tasks = listTasks(extra.state);
          return listResult(`The task list is open (${taskCountPhrase(tasks.length)}).`, tasks);
        },
      }),
      appTool({
        name: "add-task",
        title: "Add task",
        description: "Adds a task at the end of the list; called by the Tasks page.",
        inputSchema: { title: z.string().min(1).max(TASK_TITLE_LIMIT) },
        outputSchema: taskListShape,
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
        visibility: ["app"],
        view: false,
        handler: (args, extra) => {
          const task = addTask(extra.state, args.title);
          const tasks = listTasks(extra.state);
          return listResult(
            `Added "${task.title}". The list has ${taskCountPhrase(tasks.length)}.`,
            tasks,
          );
        },
      }),
      appTool({
        name: "delete-all-tasks",
        title: "Delete all tasks",
        description: "Deletes every task in the list; called by the Tasks page.",
        outputSchema: taskListShape,
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
        visibility: ["app"],
        view: false,
        handler: (_args, extra) => {
          const deleted = deleteAllTasks(extra.state);
          return listResult(
            deleted === 0
              ? "There were no tasks to delete."
              : `Deleted ${taskCountPhrase(deleted)}.`,
            [],
          );
        },
      }),
      appTool({
        name: "list-tasks",
        title: "List tasks",
        description: "Lists the tasks; called by the Tasks page to refresh.",
        outputSchema: taskListShape,
        annotations: { readOnlyHint: true, openWorldHint: false },
        visibility: ["app"],
        view: false,
        handler: (_args, extra) => {
          const tasks = listTasks(extra.state);
          return listResult(`The list has ${taskCountPhrase(tasks.length)}.`, tasks);
        },
      }),
    ],
  });
}
