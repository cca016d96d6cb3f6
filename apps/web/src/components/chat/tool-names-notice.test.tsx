// @vitest-environment jsdom
import type { ChatTool } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetStores } from "../../test-support/reset-stores";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
} from "../../test-support/render";
import { ToolNamesNotice } from "./tool-names-notice";

const tools: ChatTool[] = [
  {
    modelName: "basic_vanillajs__get-time",
    name: "get-time",
    source: "basic-vanillajs",
    renamed: "Another source has a tool named get-time.",
  },
  {
    modelName: "notes_open_notes",
    name: "open.notes",
    source: "notes",
    renamed: "Some models do not accept dots in tool names.",
  },
  { modelName: "search", name: "search", source: "web" },
];

describe("ToolNamesNotice", () => {
  let view: Rendered;
  beforeEach(() => resetStores());
  afterEach(async () => view.unmount());

  it("says how many tools have other names, and on request which and why", async () => {
    useHostStore.getState().setChatTools("chat", tools);
    view = await render(<ToolNamesNotice chatId="chat" />, new FakeSocket());
    const notice = byTestId(view.container, "tool-names-notice");
    expect(notice.getAttribute("role")).toBe("note");
    expect(notice.textContent).toContain("2 tools have other names for the model");
    const toggle = byTestId(view.container, "tool-names-notice-toggle");
    const list = notice.querySelector("ul");
    expect(list?.hidden).toBe(true);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(toggle.getAttribute("aria-controls")).toBe(list?.id);
    await click(toggle);
    expect(list?.hidden).toBe(false);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(
      allByTestId(view.container, "tool-names-notice-item").map((item) => item.textContent),
    ).toEqual([
      "basic_vanillajs__get-time →stands for get-time (basic-vanillajs): Another source has a tool named get-time.",
      "notes_open_notes →stands for open.notes (notes): Some models do not accept dots in tool names.",
    ]);
  });

  it("stays dismissed for the same renames, and shows again when others are renamed", async () => {
    useHostStore.getState().setChatTools("chat", tools);
    view = await render(<ToolNamesNotice chatId="chat" />, new FakeSocket());
    await click(byTestId(view.container, "tool-names-notice-dismiss"));
    expect(allByTestId(view.container, "tool-names-notice")).toHaveLength(0);
    // The list again (after a reconnect's hello): still dismissed.
    await act0(() => useHostStore.getState().setChatTools("chat", [...tools]));
    expect(allByTestId(view.container, "tool-names-notice")).toHaveLength(0);
    await act0(() =>
      useHostStore
        .getState()
        .setChatTools("chat", [
          ...tools,
          { modelName: "b__x", name: "x", source: "b", renamed: "Another source has x." },
        ]),
    );
    expect(byTestId(view.container, "tool-names-notice").textContent).toContain(
      "3 tools have other names for the model",
    );
  });

  it("shows nothing when no tool is renamed", async () => {
    useHostStore.getState().setChatTools("chat", [tools[2] as ChatTool]);
    view = await render(<ToolNamesNotice chatId="chat" />, new FakeSocket());
    expect(allByTestId(view.container, "tool-names-notice")).toHaveLength(0);
  });
});
