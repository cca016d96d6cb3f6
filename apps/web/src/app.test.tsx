// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./app";
import { applySessionSnapshot } from "./state/apply-snapshot";
import { serversHeard } from "./state/servers-heard";
import { resetStores } from "./test-support/reset-stores";
import { useHostStore } from "./state/host-store";
import { FakeSocket } from "./test-support/fake-socket";
import { cardDescriptor, conversationSnapshot, sessionSnapshot } from "./test-support/records";
import { act0, allByTestId, byTestId, click, type Rendered, render } from "./test-support/render";

describe("App", () => {
  let view: Rendered;
  let retries: number;

  beforeEach(async () => {
    resetStores();
    retries = 0;
    view = await render(<App />, new FakeSocket(), () => retries++);
  });
  afterEach(async () => view.unmount());

  it("shows one column with its own composer per chat, and panes in the side panel", async () => {
    await act0(() => {
      applySessionSnapshot(
        sessionSnapshot({
          chats: [
            { id: "left", title: "Research", messages: "compose", context: true },
            { id: "right", title: "Support", messages: "submit", context: false },
          ],
          panes: [
            cardDescriptor("pane-1", {
              kind: "pane",
              chatId: null,
              conversationId: null,
              title: "Monitor",
            }),
          ],
          current: conversationSnapshot("conv-1"),
          model: "anthropic:claude-test",
        }),
      );
      useHostStore.getState().setStatus("connected");
    });
    const columns = allByTestId(view.container, "chat-column");
    expect(columns.map((column) => column.getAttribute("data-chat-id"))).toEqual(["left", "right"]);
    for (const column of columns) {
      expect(allByTestId(column, "composer-input")).toHaveLength(1);
      expect(allByTestId(column, "context-inspector-button")).toHaveLength(1);
    }
    expect(byTestId(view.container, "panes-panel").textContent).toContain("Monitor");
    expect(byTestId(view.container, "model-name").textContent).toBe("anthropic:claude-test");
    expect(view.container.querySelector('[data-testid="connection-banner"]')).toBeNull();
  });

  it("shows the banner while reconnecting and the sign-in advice with Try again", async () => {
    await act0(() => useHostStore.getState().setStatus("reconnecting"));
    expect(byTestId(view.container, "connection-banner").textContent).toContain("Reconnecting");
    await act0(() =>
      useHostStore.getState().setStatus("signed-out", "Open the sign-in link again."),
    );
    const banner = byTestId(view.container, "connection-banner");
    expect(banner.getAttribute("role")).toBe("alert");
    expect(banner.textContent).toContain("not signed in");
    expect(banner.textContent).toContain("Open the sign-in link again.");
    await click(byTestId(view.container, "reconnect-button"));
    expect(retries).toBe(1);
  });

  it("shows the servers to sign in to once, above the first chat, and the header's Servers button", async () => {
    await act0(() => {
      applySessionSnapshot(
        sessionSnapshot({
          chats: [
            { id: "left", title: "Research", messages: "compose", context: true },
            { id: "right", title: "Support", messages: "submit", context: false },
          ],
        }),
      );
      serversHeard([{ name: "notes", remote: true, signIn: true, state: "needs-sign-in" }]);
    });
    const [left, right] = allByTestId(view.container, "chat-column");
    expect(allByTestId(left as HTMLElement, "sign-in-bar")).toHaveLength(1);
    expect(allByTestId(right as HTMLElement, "sign-in-bar")).toHaveLength(0);
    expect(byTestId(view.container, "servers-button").getAttribute("aria-label")).toBe(
      "Servers, 1 needs sign-in",
    );
  });

  it("toggles the theme on <html>", async () => {
    const before = document.documentElement.dataset.theme;
    await click(byTestId(view.container, "theme-toggle"));
    const after = document.documentElement.dataset.theme;
    expect(after).not.toBe(before);
    expect(["light", "dark"]).toContain(after);
    await click(byTestId(view.container, "theme-toggle"));
    expect(document.documentElement.dataset.theme).toBe(before);
  });
});
