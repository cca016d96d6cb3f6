// @vitest-environment jsdom
// The person meets a server that needs sign-in outside the panel: the header's badge, the chat's
// bar, a failed tool row.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { serversHeard } from "../../state/servers-heard";
import { FakeSocket } from "../../test-support/fake-socket";
import { chatMessage } from "../../test-support/records";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
} from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { FakePopup, serverStatus, stubWindowOpen } from "../../test-support/server-sign-in";
import { MessageView } from "../chat/message-view";
import { serversButtonLabel, ServersButton } from "./servers-button";
import { SignInBar } from "./sign-in-bar";

describe("servers that need sign-in, outside the panel", () => {
  let socket: FakeSocket;
  let view: Rendered;

  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
    socket.respond("servers:list", () => ({ ok: true, value: [] }));
    serversHeard([
      serverStatus("tasks", { reason: "Your sign-in to tasks lapsed; connect again." }),
      serverStatus("drive"),
      serverStatus("mail", { state: "connected" }),
      serverStatus("local", { signIn: false, state: "failed" }),
    ]);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await view.unmount();
  });

  it("lists them in the chat with Connect <server>, each dismissible", async () => {
    view = await render(<SignInBar />, socket);
    const items = () => allByTestId(view.container, "sign-in-bar-item");
    expect(items().map((item) => item.dataset.server)).toEqual(["tasks", "drive"]);
    expect(items()[0]?.textContent).toContain(
      "tasks needs you to sign in: Your sign-in to tasks lapsed; connect again.",
    );
    const connect = byTestId(items()[1] as HTMLElement, "server-connect");
    expect(connect.textContent).toBe("Connect drive");
    expect(connect.getAttribute("aria-label")).toBe("Connect drive");
    const dismiss = byTestId(items()[0] as HTMLElement, "sign-in-bar-dismiss");
    expect(dismiss.getAttribute("aria-label")).toBe("Dismiss the sign-in note for tasks");
    await click(dismiss);
    expect(items().map((item) => item.dataset.server)).toEqual(["drive"]);
    // Still dismissed when the list is heard again.
    await act0(() => serversHeard([serverStatus("tasks"), serverStatus("drive")]));
    expect(items().map((item) => item.dataset.server)).toEqual(["drive"]);
    await act0(() => serversHeard([serverStatus("drive", { state: "connected" })]));
    expect(view.container.querySelector('[data-testid="sign-in-bar"]')).toBeNull();
  });

  it("connects from the bar with the same flow", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => ({
      ok: true,
      value: { authorizationUrl: "https://login.example.com/authorize" },
    }));
    view = await render(<SignInBar />, socket);
    await click(byTestId(view.container, "server-connect"));
    expect(popup.opener).toBeNull();
    expect(socket.sent("server:connect")).toEqual([{ name: "tasks" }]);
    await act0();
    expect(popup.replaced).toEqual(["https://login.example.com/authorize"]);
    expect(allByTestId(view.container, "sign-in-bar-item")[0]?.textContent).toContain(
      "tasks: Signing in… (finish in the window that opened)",
    );
  });

  it("badges the header's Servers button with how many need sign-in", async () => {
    view = await render(<ServersButton />, socket);
    const button = byTestId(view.container, "servers-button");
    expect(button.getAttribute("aria-label")).toBe("Servers, 2 need sign-in");
    expect(byTestId(view.container, "servers-badge").textContent).toBe("2");
    await act0(() => serversHeard([serverStatus("tasks", { state: "connected" })]));
    expect(button.getAttribute("aria-label")).toBe("Servers");
    expect(view.container.querySelector('[data-testid="servers-badge"]')).toBeNull();
    expect(serversButtonLabel(1)).toBe("Servers, 1 needs sign-in");
    await click(button);
    expect(document.querySelector('[data-testid="servers-panel"]')).not.toBeNull();
  });

  it("offers Connect <server> on a failed tool row whose server needs sign-in", async () => {
    const message = chatMessage("m1", {
      parts: [
        {
          type: "tool",
          toolCallId: "t1",
          name: "list-tasks",
          source: "tasks",
          state: "output-error",
          input: {},
          errorText: "tasks needs you to sign in.",
        },
        {
          type: "tool",
          toolCallId: "t2",
          name: "send",
          source: "mail",
          state: "output-error",
          input: {},
          errorText: "The mail server failed.",
        },
      ],
    });
    view = await render(<MessageView message={message} />, socket);
    const [tasks, mail] = allByTestId(view.container, "tool-row");
    expect(byTestId(tasks as HTMLElement, "server-connect").textContent).toBe("Connect tasks");
    expect(allByTestId(mail as HTMLElement, "tool-row-sign-in")).toHaveLength(0);
  });
});
