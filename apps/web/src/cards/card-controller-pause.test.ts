// @vitest-environment jsdom
// Pausing a card to free a live view slot, with real pieces (socket.io on 127.0.0.1, AppBridge, an
// ext-apps App as the view): the view gets `ui/resource-teardown`, the server hears nothing (the
// card stays open there, with its report); the card says when it is in use (a call of its view
// unanswered, full screen); its reports reach the page; a resumed card starts at its old height
// and its log says it was paused.
import { describe, expect, it, vi } from "vitest";
import { cardViewAccess } from "../state/host-store";
import { attachReply, recordingView, setUpControllerFixture } from "./testing/controller-fixture";
import { attributeSet } from "./testing/view-harness";

const fixture = setUpControllerFixture();

describe("CardController: pausing", () => {
  it("tears the view down without telling the server, and leaves no closed text", async () => {
    const { controller, view } = await fixture.openCard();
    const tornDown = vi.fn(async () => ({}));
    view.app.onteardown = tornDown;
    expect(controller.inUse()).toBe(false);
    await controller.pause();
    expect(tornDown).toHaveBeenCalledOnce();
    await fixture.harness.hostClosed;
    await fixture.roundTrip();
    expect(fixture.server.received.map((entry) => entry.event)).not.toContain("card:teardown");
    expect(cardViewAccess.get("card-1")?.status).toBe("closing");
    expect(cardViewAccess.get("card-1")?.error).toBeNull();
    // A paused card is not in use, and pausing again changes nothing.
    expect(controller.inUse()).toBe(false);
    await controller.pause();
    expect(tornDown).toHaveBeenCalledOnce();
  });

  it("is in use while a call of its view waits for its answer, and in full screen", async () => {
    const { controller, view } = await fixture.openCard();
    let answer: (value: Record<string, unknown>) => void = () => undefined;
    fixture.server.answer(
      "card:call-tool",
      () => new Promise<Record<string, unknown>>((resolve) => (answer = resolve)),
    );
    const call = view.app.callServerTool({ name: "get-time", arguments: { zone: "CET" } });
    await fixture.server.next("card:call-tool", 0);
    expect(controller.inUse()).toBe(true);
    answer({ content: [{ type: "text", text: "13:00" }] });
    await call;
    expect(controller.inUse()).toBe(false);

    expect(controller.setDisplayMode("fullscreen")).toBe("fullscreen");
    expect(controller.inUse()).toBe(true);
    controller.setDisplayMode("inline");
    expect(controller.inUse()).toBe(false);
  });

  it("is in use while its opening call has no result yet", async () => {
    const { controller } = await fixture.openCard(
      recordingView(),
      attachReply({ toolResult: null }),
    );
    expect(controller.inUse()).toBe(true);
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "12:00" }] },
      durationMs: 1,
    });
    await vi.waitFor(() => expect(controller.inUse()).toBe(false), { timeout: 5_000 });
  });

  it("hands the text of each report to the page", async () => {
    const reports: string[] = [];
    fixture.server.answer("card:attach", () => attachReply());
    fixture.server.answer("card:update-context", () => ({ reportedAt: 5 }));
    const view = recordingView();
    fixture.startCard({ onReport: (instanceId, text) => reports.push(`${instanceId}: ${text}`) });
    await attributeSet(fixture.iframe, "src");
    await fixture.harness.proxyReady();
    await fixture.harness.loadView(view.app);
    await view.input;
    await view.app.updateModelContext({ content: [{ type: "text", text: "It is 12:00 in UTC." }] });
    expect(reports).toEqual(["card-1: It is 12:00 in UTC."]);
  });

  it("starts a resumed card at its old height and logs when it was paused", () => {
    fixture.server.answer("card:attach", () => "no-answer");
    fixture.startCard({ resume: { pausedAt: Date.UTC(2026, 0, 1, 9, 30), frameHeight: 512 } });
    const state = cardViewAccess.get("card-1");
    expect(state?.frameHeight).toBe(512);
    expect(state?.log.map((entry) => entry.data)).toEqual([
      expect.stringMatching(
        /^The app was paused at .+ while out of view, and opened again from its saved result\.$/,
      ),
    ]);
  });
});
