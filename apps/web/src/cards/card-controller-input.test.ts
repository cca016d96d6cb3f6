// @vitest-environment jsdom
// A card opened while the model still writes its arguments (`inputStreaming`): the view gets
// `tool-input-partial`s after `initialized` (only the newest of those that came before), then
// `tool-input` once, then the outcome; never a partial after the input. Real socket.io on
// 127.0.0.1, a real AppBridge and an ext-apps App as the view.
import { describe, expect, it, vi } from "vitest";
import { cardViewAccess, useHostStore } from "../state/host-store";
import {
  attachReply,
  descriptor,
  recordingView,
  setUpControllerFixture,
} from "./testing/controller-fixture";
import { attributeSet, methodsOf } from "./testing/view-harness";

const fixture = setUpControllerFixture();

/** A view that also records the partial arguments it is sent, in its timeline. */
function partialRecordingView() {
  const view = recordingView();
  view.app.ontoolinputpartial = (params) => {
    view.timeline.push(`partial ${JSON.stringify(params.arguments)}`);
  };
  return view;
}

const streamingReply = attachReply({ toolInput: {}, inputStreaming: true, toolResult: null });

/** Starts a streaming card and brings its view up to (not including) `initialized`. */
async function startStreamingCard() {
  fixture.server.answer("card:attach", () => streamingReply);
  fixture.startCard({ card: descriptor({ arguments: {}, inputStreaming: true }) });
  await attributeSet(fixture.iframe, "src");
  await fixture.harness.proxyReady();
  await fixture.harness.resourceReady;
}

function partial(zone: string) {
  fixture.chunk({ type: "tool-input-delta", toolCallId: "call-1", input: { zone } });
}

describe("CardController: arguments the model is still writing", () => {
  it("sends the newest partial after initialized, then later ones, then the input once, then the result", async () => {
    await startStreamingCard();
    partial("U");
    partial("UT");
    fixture.chunk({ type: "tool-input-delta", toolCallId: "call-2", input: { zone: "X" } });
    await fixture.roundTrip();
    expect(useHostStore.getState().cards["card-1"]?.arguments).toEqual({ zone: "UT" });

    const view = partialRecordingView();
    await fixture.harness.loadView(view.app);
    await vi.waitFor(() => expect(view.timeline).toEqual(['partial {"zone":"UT"}']), {
      timeout: 5_000,
    });
    partial("UTC");
    await vi.waitFor(() => expect(view.timeline).toHaveLength(2), { timeout: 5_000 });

    fixture.chunk({ type: "tool-input-available", toolCallId: "call-1", input: { zone: "UTC+1" } });
    expect(await view.input).toEqual({ arguments: { zone: "UTC+1" } });
    // Too late: the input is final.
    partial("never");
    fixture.chunk({ type: "tool-input-available", toolCallId: "call-1", input: { zone: "again" } });
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "13:00" }] },
      durationMs: 1,
    });
    expect(await view.final).toMatchObject({ content: [{ type: "text", text: "13:00" }] });
    await fixture.roundTrip();
    expect(view.timeline).toEqual([
      'partial {"zone":"UT"}',
      'partial {"zone":"UTC"}',
      "tool-input",
      "tool-result",
    ]);
    const methods = methodsOf(fixture.harness.toView);
    expect(methods.filter((method) => method === "ui/notifications/tool-input")).toHaveLength(1);
    expect(methods.lastIndexOf("ui/notifications/tool-input-partial")).toBeLessThan(
      methods.indexOf("ui/notifications/tool-input"),
    );
    expect(useHostStore.getState().cards["card-1"]?.arguments).toEqual({ zone: "UTC+1" });
  });

  it("marks the card delivered only once the outcome went out, not at initialized", async () => {
    await startStreamingCard();
    const view = partialRecordingView();
    await fixture.harness.loadView(view.app);
    fixture.chunk({ type: "tool-input-available", toolCallId: "call-1", input: { zone: "UTC" } });
    expect(await view.input).toEqual({ arguments: { zone: "UTC" } });
    await fixture.roundTrip();
    expect(cardViewAccess.get("card-1")?.status).toBe("ready");
    expect(cardViewAccess.get("card-1")?.delivered).toBe(false);
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "12:00" }] },
      durationMs: 1,
    });
    await view.final;
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.delivered).toBe(true), {
      timeout: 5_000,
    });
  });

  it("sends no partial when the final input came before initialized", async () => {
    await startStreamingCard();
    partial("U");
    fixture.chunk({ type: "tool-input-available", toolCallId: "call-1", input: { zone: "UTC" } });
    fixture.chunk({
      type: "tool-output-available",
      toolCallId: "call-1",
      output: {},
      cardResult: { content: [{ type: "text", text: "12:00" }] },
      durationMs: 1,
    });
    await fixture.roundTrip();
    const view = partialRecordingView();
    await fixture.harness.loadView(view.app);
    expect(await view.input).toEqual({ arguments: { zone: "UTC" } });
    await view.final;
    expect(view.timeline).toEqual(["tool-input", "tool-result"]);
  });

  it("sends the last guess as the input, then tool-cancelled, when the call never ran", async () => {
    await startStreamingCard();
    const view = partialRecordingView();
    await fixture.harness.loadView(view.app);
    partial("Eu");
    await vi.waitFor(() => expect(view.timeline).toHaveLength(1), { timeout: 5_000 });
    fixture.chunk({
      type: "tool-output-error",
      toolCallId: "call-1",
      errorText: "Tool call rejected. Not now.",
      durationMs: 1,
    });
    expect(await view.final).toEqual({ reason: "Tool call rejected. Not now." });
    expect(await view.input).toEqual({ arguments: { zone: "Eu" } });
    expect(view.timeline).toEqual(['partial {"zone":"Eu"}', "tool-input", "tool-cancelled"]);
  });

  it("ignores partials for a card whose arguments never streamed", async () => {
    fixture.server.answer("card:attach", () => attachReply());
    fixture.startCard();
    partial("X");
    await attributeSet(fixture.iframe, "src");
    await fixture.harness.proxyReady();
    const view = partialRecordingView();
    await fixture.harness.loadView(view.app);
    expect(await view.input).toEqual({ arguments: { zone: "UTC" } });
    await view.final;
    expect(view.timeline).toEqual(["tool-input", "tool-result"]);
  });
});
