import { policies, type AppCall } from "@mcp-chat-host/host";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  listedTool,
  openSource,
  textOf,
  viewOf,
  visibilityOf,
  type ListedTool,
} from "../test-support";
import { tasksApp } from "./app";
import { TASK_LIMIT } from "./task-list";

const listSchema = z.strictObject({
  tasks: z.array(z.strictObject({ id: z.number().int(), title: z.string() })),
  count: z.number().int(),
});

/** What the host's default policy answers for a page's call to this tool: allowed, or asked. */
async function defaultVerdict(tool: ListedTool): Promise<"allowed" | "asked"> {
  let asked = false;
  const call: AppCall = {
    name: tool.name,
    arguments: {},
    tool: {
      name: tool.name,
      inputSchema: tool.inputSchema,
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    },
    instanceId: "card-1",
    kind: "card",
    source: "tasks",
    chat: "chat",
    title: "Tasks",
    session: { id: "session-1", user: null },
    ask: async () => {
      asked = true;
      return false;
    },
  };
  const verdict = await policies.annotations()(call);
  if (asked) return "asked";
  if (verdict !== true) throw new Error(`The policy answered ${String(verdict)} without asking.`);
  return "allowed";
}

function titles(result: { structuredContent?: unknown }): string[] {
  return listSchema.parse(result.structuredContent).tasks.map((task) => task.title);
}

describe("the Tasks app", () => {
  it("lists show-tasks for the model with its page and read-only hints", async () => {
    const source = await openSource(tasksApp());
    const tool = await listedTool(source, "show-tasks");
    expect(visibilityOf(tool)).toContain("model");
    expect(viewOf(tool)).toBe("ui://tasks");
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tool.outputSchema?.properties).toHaveProperty("tasks");
  });

  it("keeps add-task, delete-all-tasks and list-tasks from the model, with their hints", async () => {
    const source = await openSource(tasksApp());
    const add = await listedTool(source, "add-task");
    const deleteAll = await listedTool(source, "delete-all-tasks");
    const list = await listedTool(source, "list-tasks");
    for (const tool of [add, deleteAll, list]) {
      expect(visibilityOf(tool), tool.name).toEqual(["app"]);
      expect(viewOf(tool), tool.name).toBeUndefined();
    }
    expect(add.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
    expect(add.annotations?.readOnlyHint).toBe(false);
    // The hint the default on_app_call policy reads to ask the person first.
    expect(deleteAll.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(list.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(Object.keys(add.inputSchema.properties ?? {})).toEqual(["title"]);
    expect(add.inputSchema.required).toEqual(["title"]);
  });

  it("is asked about by the default policy for delete-all-tasks only", async () => {
    const source = await openSource(tasksApp());
    const verdicts: Record<string, string> = {};
    for (const name of ["add-task", "delete-all-tasks", "list-tasks", "show-tasks"]) {
      verdicts[name] = await defaultVerdict(await listedTool(source, name));
    }
    expect(verdicts).toEqual({
      "add-task": "allowed",
      "delete-all-tasks": "asked",
      "list-tasks": "allowed",
      "show-tasks": "allowed",
    });
  });

  it("adds, lists and deletes every task, answering with the list each time", async () => {
    const source = await openSource(tasksApp());
    const opened = await source.callTool("show-tasks", {});
    expect(opened.structuredContent).toEqual({ tasks: [], count: 0 });
    expect(textOf(opened)).toBe("The task list is open (no tasks).");

    const first = await source.callTool("add-task", { title: "Water the plants" });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBe('Added "Water the plants". The list has 1 task.');
    const second = await source.callTool("add-task", { title: "  Call Ada  " });
    expect(second.structuredContent).toEqual({
      tasks: [
        { id: 1, title: "Water the plants" },
        { id: 2, title: "Call Ada" },
      ],
      count: 2,
    });

    const listed = await source.callTool("list-tasks", {});
    expect(titles(listed)).toEqual(["Water the plants", "Call Ada"]);
    expect(textOf(listed)).toBe("The list has 2 tasks.");

    const deleted = await source.callTool("delete-all-tasks", {});
    expect(deleted.structuredContent).toEqual({ tasks: [], count: 0 });
    expect(textOf(deleted)).toBe("Deleted 2 tasks.");
    expect(titles(await source.callTool("show-tasks", {}))).toEqual([]);
    expect(textOf(await source.callTool("delete-all-tasks", {}))).toBe(
      "There were no tasks to delete.",
    );

    const afterDelete = await source.callTool("add-task", { title: "Fresh start" });
    expect(listSchema.parse(afterDelete.structuredContent).tasks).toEqual([
      { id: 3, title: "Fresh start" },
    ]);
  });

  it("refuses a blank title and a full list with a sentence saying what to do", async () => {
    const source = await openSource(tasksApp());
    const blank = await source.callTool("add-task", { title: "   " });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toContain("A task needs a title");

    for (let index = 1; index <= TASK_LIMIT; index += 1) {
      const added = await source.callTool("add-task", { title: `task ${index}` });
      expect(added.isError, `task ${index}`).toBeFalsy();
    }
    const full = await source.callTool("add-task", { title: "one too many" });
    expect(full.isError).toBe(true);
    expect(textOf(full)).toContain(`The list is full (${TASK_LIMIT} tasks)`);
    expect(titles(await source.callTool("list-tasks", {}))).toHaveLength(TASK_LIMIT);
  });

  it("keeps a separate list per server instance", async () => {
    const app = tasksApp();
    const first = await openSource(app);
    await first.callTool("add-task", { title: "only here" });
    const second = await openSource(app);
    expect(titles(await second.callTool("list-tasks", {}))).toEqual([]);
    expect(titles(await first.callTool("list-tasks", {}))).toEqual(["only here"]);
  });
});
