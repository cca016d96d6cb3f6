// @vitest-environment jsdom
// A card's view loading and its teardown, with real pieces: socket.io on 127.0.0.1, AppBridge,
// and an ext-apps App as the view behind a stand-in for the sandbox proxy (e2e tests use Chromium).
import { describe, expect, it, vi } from "vitest";
import { reattachCards } from "../state/page-cards";
import { cardViewAccess } from "../state/host-store";
import { attachReply, recordingView, setUpControllerFixture } from "./testing/controller-fixture";
import type { TimerFunctions } from "./teardown-with-timeout";
import { attributeSet, methodsOf } from "./testing/view-harness";

const sandboxOrigin = "http://127.0.0.1:45999";
const fixture = setUpControllerFixture();

describe("CardController: loading a view", () => {
  it("sends the view's HTML after the proxy is ready, nothing before initialized, then input and result", async () => {
    fixture.server.answer("card:attach", () => attachReply());
    fixture.startCard();
    // The proxy is loaded only once the bridge listens for it.
    expect(await attributeSet(fixture.iframe, "src")).toBe(`${sandboxOrigin}/proxy?csp=abc`);
    expect(fixture.iframe.getAttribute("allow")).toBe("clipboard-write");
    expect(fixture.harness.fromHost).toEqual([]);

    await fixture.harness.proxyReady();
    expect(await fixture.harness.resourceReady).toEqual({
      html: "<!doctype html><p>clock</p>",
      csp: { connectDomains: ["https://api.example.com"] },
      permissions: { clipboardWrite: {} },
    });
    expect(methodsOf(fixture.harness.fromHost)).toEqual([
      "ui/notifications/sandbox-resource-ready",
    ]);

    const view = recordingView();
    await fixture.harness.loadView(view.app);
    expect(await view.input).toEqual({ arguments: { zone: "UTC" } });
    expect(await view.final).toMatchObject({ content: [{ type: "text", text: "12:00" }] });
    expect(view.timeline).toEqual(["tool-input", "tool-result"]);

    // The initialize answer came first; the host's first notification is tool-input, after initialized.
    const hostMethods = methodsOf(fixture.harness.toView);
    expect(hostMethods.slice(0, 2)).toEqual([
      "ui/notifications/tool-input",
      "ui/notifications/tool-result",
    ]);
    const initializedAt = methodsOf(fixture.harness.fromView).indexOf(
      "ui/notifications/initialized",
    );
    expect(initializedAt).toBeGreaterThanOrEqual(0);
    expect(view.app.getHostContext()).toMatchObject({
      theme: "light",
      platform: "web",
      userAgent: "mcp-chat-host",
      displayMode: "inline",
      availableDisplayModes: ["inline", "fullscreen", "pip"],
      toolInfo: { tool: { name: "show-time" } },
      containerDimensions: { maxHeight: 6000 },
    });
    expect(view.app.getHostContext()?.styles?.variables?.["--color-background-primary"]).toBe(
      "#ffffff",
    );
    expect(fixture.server.received.filter((entry) => entry.event === "card:attach")).toEqual([
      // With the permissions the person granted the source, and only those.
      { event: "card:attach", payload: { instanceId: "card-1", permissions: ["clipboardWrite"] } },
    ]);
    expect(cardViewAccess.get("card-1")?.status).toBe("ready");
  });

  it("sends a result that arrives after the view initialised, once", async () => {
    const view = recordingView();
    await fixture.openCard(view, attachReply({ toolResult: null }));
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-2",
      output: {},
      cardResult: { content: [] },
      durationMs: 1,
    });
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "late" }] },
      durationMs: 1,
    });
    expect(await view.final).toMatchObject({ content: [{ type: "text", text: "late" }] });
    fixture.chunk({
      type: "tool-output-error",
      toolCallId: "call-1",
      errorText: "too late",
      durationMs: 1,
    });
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "again" }] },
      durationMs: 1,
    });
    await fixture.roundTrip();
    const methods = methodsOf(fixture.harness.toView);
    expect(methods.filter((method) => method === "ui/notifications/tool-result")).toHaveLength(1);
    expect(methods).not.toContain("ui/notifications/tool-cancelled");
  });

  it("sends tool-cancelled to a restored card whose call failed, and calls no tool", async () => {
    const view = recordingView();
    await fixture.openCard(
      view,
      attachReply({ toolResult: null, cancelled: "The call was stopped.", restored: true }),
    );
    expect(await view.final).toEqual({ reason: "The call was stopped." });
    expect(view.timeline).toEqual(["tool-input", "tool-cancelled"]);
    expect(fixture.server.received.map((entry) => entry.event)).not.toContain("card:call-tool");
  });

  it("holds host-context changes made before the view initialised, and sends them after its input", async () => {
    fixture.server.answer("card:attach", () => attachReply());
    const controller = fixture.startCard();
    await attributeSet(fixture.iframe, "src");
    await fixture.harness.proxyReady();
    await fixture.harness.resourceReady;
    controller.setTheme("dark");
    expect(methodsOf(fixture.harness.fromHost)).toEqual([
      "ui/notifications/sandbox-resource-ready",
    ]);
    const view = recordingView();
    await fixture.harness.loadView(view.app);
    await view.final;
    await vi.waitFor(() => expect(view.contextChanges).toHaveLength(1), { timeout: 5_000 });
    expect(view.contextChanges[0]).toMatchObject({ theme: "dark" });
    expect(view.contextChanges[0]).not.toHaveProperty("toolInfo");
    const methods = methodsOf(fixture.harness.toView);
    expect(methods.indexOf("ui/notifications/host-context-changed")).toBeGreaterThan(
      methods.indexOf("ui/notifications/tool-input"),
    );
  });

  it("attaches again after a reconnect without sending the view anything again", async () => {
    const { view } = await fixture.openCard();
    await view.final;
    fixture.server.answer("card:attach", () => attachReply({ restored: true }));
    await reattachCards();
    expect(fixture.server.received.filter((entry) => entry.event === "card:attach")).toHaveLength(
      2,
    );
    await fixture.roundTrip();
    const methods = methodsOf(fixture.harness.toView);
    expect(methods.filter((method) => method === "ui/notifications/tool-input")).toHaveLength(1);
    expect(methods.filter((method) => method === "ui/notifications/tool-result")).toHaveLength(1);
  });

  it("shows the attach error and never loads the proxy", async () => {
    fixture.server.answer("card:attach", () => ({
      code: "not_found",
      message: "This app isn't available any more.",
      retryable: false,
    }));
    const controller = fixture.startCard();
    await fixture.server.next("card:attach");
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.status).toBe("error"), {
      timeout: 5_000,
    });
    expect(cardViewAccess.get("card-1")?.error).toBe("This app isn't available any more.");
    expect(fixture.iframe.getAttribute("src")).toBeNull();
    await controller.dispose("closed");
    expect(fixture.server.received.map((entry) => entry.event)).toEqual(["card:attach"]);
  });
});

describe("CardController: teardown", () => {
  it("sends ui/resource-teardown and waits for it before card:teardown, then closes", async () => {
    const order: string[] = [];
    const view = recordingView();
    view.app.onteardown = async () => {
      order.push("view teardown");
      return {};
    };
    fixture.server.answer("card:teardown", () => {
      order.push("server teardown");
      return {};
    });
    const closed = vi.fn();
    fixture.server.answer("card:attach", () => attachReply());
    const controller = fixture.startCard({ onClose: closed });
    await attributeSet(fixture.iframe, "src");
    await fixture.harness.proxyReady();
    await fixture.harness.loadView(view.app);
    await view.input;
    await controller.close();
    expect((await fixture.server.next("card:teardown", 0)).payload).toEqual({
      instanceId: "card-1",
      reason: "closed",
    });
    expect(order).toEqual(["view teardown", "server teardown"]);
    expect(closed).toHaveBeenCalledExactlyOnceWith("card-1");
    expect(cardViewAccess.get("card-1")?.status).toBe("closed");
    // The bridge is closed: the view's requests no longer reach the page.
    await fixture.harness.hostClosed;
  });

  it("gives up on a silent view after the timeout and still tears the card down", async () => {
    const scheduled: Array<{ callback: () => void; delayMs: number }> = [];
    const timers: TimerFunctions = {
      setTimeout: (callback, delayMs) => scheduled.push({ callback, delayMs }),
      clearTimeout: () => undefined,
    };
    fixture.server.answer("card:attach", () => attachReply());
    fixture.server.answer("card:teardown", () => ({}));
    const view = recordingView();
    const controller = fixture.startCard({ timers });
    await attributeSet(fixture.iframe, "src");
    await fixture.harness.proxyReady();
    await fixture.harness.loadView(view.app);
    await view.input;
    fixture.harness.silence();
    const done = controller.dispose("conversation-closed");
    await vi.waitFor(() => expect(scheduled.map((timer) => timer.delayMs)).toContain(3_000), {
      timeout: 5_000,
    });
    expect(fixture.server.received.map((entry) => entry.event)).not.toContain("card:teardown");
    scheduled.find((timer) => timer.delayMs === 3_000)?.callback();
    await done;
    expect((await fixture.server.next("card:teardown", 0)).payload).toEqual({
      instanceId: "card-1",
      reason: "conversation-closed",
    });
  });

  it("does not send card:teardown when the server closed the card", async () => {
    const { view } = await fixture.openCard();
    view.app.onteardown = async () => ({});
    fixture.server.emit("card:closed", {
      instanceId: "card-1",
      reason: "The app's server stopped.",
    });
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.status).toBe("closed"), {
      timeout: 5_000,
    });
    expect(cardViewAccess.get("card-1")?.error).toBe("The app's server stopped.");
    expect(fixture.server.received.map((entry) => entry.event)).not.toContain("card:teardown");
  });
});
