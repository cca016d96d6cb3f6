// @vitest-environment jsdom
// A view's powerful permissions (camera, microphone, geolocation, clipboard
// write) reach its frame only after the person said yes, naming the app; the answer is kept per
// source and shown, and withdrawing it loads the view again without it. Real socket.io pieces
// and a real ext-apps App as the view (see testing/controller-fixture.ts).
import type { AttachReply } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CardController } from "./card-controller";
import { cardViewAccess } from "../state/host-store";
import {
  attachReply,
  descriptor,
  recordingView,
  setUpControllerFixture,
} from "./testing/controller-fixture";
import { memoryGrants, type MemoryGrants } from "./testing/memory-grants";
import { attributeSet, createViewHarness, type ViewHarness } from "./testing/view-harness";

const fixture = setUpControllerFixture();
const controllers: CardController[] = [];

afterEach(async () => {
  for (const controller of controllers.splice(0)) {
    await controller.dispose("unmounted");
    cardViewAccess.remove(controller.instanceId);
  }
});

const camera: AttachReply = attachReply({
  page: {
    html: "<!doctype html><p>camera</p>",
    permissions: { camera: {}, microphone: {} },
    sandboxOrigin: "http://127.0.0.1:45999",
    proxyUrl: "http://127.0.0.1:45999/proxy?csp=abc",
  },
});

/** A card with its own frame, its own grants and a fresh view harness for each load. */
function startCard(grants: MemoryGrants, instanceId = "card-1") {
  const holder = document.createElement("div");
  const iframe = document.createElement("iframe");
  holder.appendChild(iframe);
  fixture.holder.appendChild(holder);
  const harnesses: ViewHarness[] = [];
  const controller = new CardController({
    card: descriptor({ instanceId }),
    socket: fixture.server.client,
    iframe,
    holder,
    theme: "light",
    callbacks: () => ({ onClose: () => undefined }),
    createTransport: () => {
      const harness = harnesses.shift();
      if (harness === undefined) throw new Error("No harness prepared for this load.");
      return harness.hostSide;
    },
    permissions: grants,
  });
  controllers.push(controller);
  /** Prepares the harness of the next load. */
  const prepare = async () => {
    const harness = await createViewHarness();
    harnesses.push(harness);
    return harness;
  };
  return { controller, iframe, prepare };
}

function attaches(): unknown[] {
  return fixture.server.received
    .filter((entry) => entry.event === "card:attach")
    .map((entry) => entry.payload);
}

describe("CardController: a view's powerful permissions", () => {
  it("asks the person, naming the app, before the view loads; nothing is allowed before a yes", async () => {
    const grants = memoryGrants();
    fixture.server.answer("card:attach", () => camera);
    const { controller, iframe, prepare } = startCard(grants);
    const harness = await prepare();
    controller.start();
    await vi.waitFor(() =>
      expect(cardViewAccess.get("card-1")?.permissionRequest?.permissions).toEqual([
        "camera",
        "microphone",
      ]),
    );
    // Asked before anything loads: no proxy, no `allow`, and the attach granted nothing.
    expect(iframe.hasAttribute("src")).toBe(false);
    expect(iframe.hasAttribute("allow")).toBe(false);
    expect(attaches()).toEqual([{ instanceId: "card-1" }]);

    cardViewAccess.get("card-1")?.permissionRequest?.answer(true);
    expect(await attributeSet(iframe, "src")).toBe(camera.page.proxyUrl);
    expect(iframe.getAttribute("allow")).toBe("camera; microphone");
    // The second attach carries the answer, so the server's proxy URL grants the same.
    expect(attaches()).toEqual([
      { instanceId: "card-1" },
      { instanceId: "card-1", permissions: ["camera", "microphone"] },
    ]);
    await harness.proxyReady();
    expect((await harness.resourceReady).permissions).toEqual({ camera: {}, microphone: {} });
    expect(grants.answers.get("clock")).toEqual({ camera: "granted", microphone: "granted" });
    expect(cardViewAccess.get("card-1")?.permissions).toEqual({
      declared: ["camera", "microphone"],
      granted: ["camera", "microphone"],
    });
  });

  it("gives a refused view no `allow` at all, and asks nothing again for its source", async () => {
    const grants = memoryGrants();
    fixture.server.answer("card:attach", () => camera);
    const first = startCard(grants);
    const harness = await first.prepare();
    first.controller.start();
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.permissionRequest).not.toBeNull());
    cardViewAccess.get("card-1")?.permissionRequest?.answer(false);
    await attributeSet(first.iframe, "src");
    expect(first.iframe.hasAttribute("allow")).toBe(false);
    await harness.proxyReady();
    expect((await harness.resourceReady).permissions).toBeUndefined();
    expect(grants.answers.get("clock")).toEqual({ camera: "refused", microphone: "refused" });

    // Another card of the same source opens without a question.
    const second = startCard(grants, "card-2");
    await second.prepare();
    second.controller.start();
    await attributeSet(second.iframe, "src");
    expect(cardViewAccess.get("card-2")?.permissionRequest).toBeNull();
    expect(second.iframe.hasAttribute("allow")).toBe(false);
    expect(cardViewAccess.get("card-2")?.permissions.granted).toEqual([]);
  });

  it("loads the view again without a permission the person withdrew", async () => {
    const grants = memoryGrants({ clock: { camera: "granted", microphone: "refused" } });
    fixture.server.answer("card:attach", () => camera);
    const { controller, iframe, prepare } = startCard(grants);
    const firstLoad = await prepare();
    const view = recordingView();
    controller.start();
    await attributeSet(iframe, "src");
    expect(iframe.getAttribute("allow")).toBe("camera");
    await firstLoad.proxyReady();
    await firstLoad.resourceReady;
    await firstLoad.loadView(view.app);
    await view.input;

    const secondLoad = await prepare();
    controller.answerPermission("camera", false);
    // The running view is told it goes away, its bridge is closed, and it loads again.
    await firstLoad.hostClosed;
    await vi.waitFor(() => expect(attaches()).toHaveLength(2));
    expect(attaches()[1]).toEqual({ instanceId: "card-1" });
    await vi.waitFor(() => expect(iframe.hasAttribute("allow")).toBe(false));
    await secondLoad.proxyReady();
    expect((await secondLoad.resourceReady).permissions).toBeUndefined();
    const reloaded = recordingView();
    await secondLoad.loadView(reloaded.app);
    await reloaded.input;
    expect(cardViewAccess.get("card-1")).toMatchObject({
      status: "ready",
      permissions: { declared: ["camera", "microphone"], granted: [] },
    });
  });
});
