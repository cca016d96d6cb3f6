import { describe, expect, it } from "vitest";
import { REPORT_TASK_LIMIT, tasksReport, taskCountPhrase, type Task } from "./task-list";

function tasks(count: number): Task[] {
  return Array.from({ length: count }, (_, index) => ({ id: index + 1, title: `t${index + 1}` }));
}

describe("tasksReport", () => {
  it("says the list is empty", () => {
    expect(tasksReport([])).toEqual({
      text: "The task list is empty.",
      structuredContent: { count: 0, titles: [] },
    });
  });

  it("starts with the count and lists the titles", () => {
    expect(tasksReport(tasks(2))).toEqual({
      text: "The task list has 2 tasks:\n- t1\n- t2",
      structuredContent: { count: 2, titles: ["t1", "t2"] },
    });
    expect(tasksReport(tasks(1)).text).toBe("The task list has 1 task:\n- t1");
  });

  it("lists at most the limit of titles and counts the rest", () => {
    const report = tasksReport(tasks(REPORT_TASK_LIMIT + 3));
    const lines = report.text.split("\n");
    expect(lines).toHaveLength(1 + REPORT_TASK_LIMIT + 1);
    expect(lines.at(-1)).toBe("- and 3 more");
    expect(report.structuredContent.count).toBe(REPORT_TASK_LIMIT + 3);
  });

  it("phrases counts", () => {
    expect([0, 1, 5].map(taskCountPhrase)).toEqual(["no tasks", "1 task", "5 tasks"]);
  });
});
