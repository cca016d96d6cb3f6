// @vitest-environment jsdom
// Cards taking turns to attach, with the real socket.io pieces: a card waits (and says so) while
// the slots are taken, a refused attach frees its slot for the next card, and a card torn down
// while it waits leaves the queue without sending anything.
import type { WireError } from "@mcp-chat-host/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { AttachQueue } from "./attach-queue";
import { CardController } from "./card-controller";
import { cardViewAccess } from "../state/host-store";
import { descriptor, setUpControllerFixture } from "./testing/controller-fixture";

const fixture = setUpControllerFixture();
const controllers: CardController[] = [];

afterEach(async () => {
  for (const controller of controllers.splice(0)) {
    await controller.dispose("unmounted");
    cardViewAccess.remove(controller.instanceId);
  }
});

function startCard(instanceId: string, queue: AttachQueue): CardController {
  const holder = document.createElement("div");
  const iframe = document.createElement("iframe");
  holder.appendChild(iframe);
  fixture.holder.appendChild(holder);
  const controller = new CardController({
    card: descriptor({ instanceId }),
    socket: fixture.server.client,
    iframe,
    holder,
    theme: "light",
    callbacks: () => ({ onClose: () => undefined }),
    createTransport: () => fixture.harness.hostSide,
    attachQueue: queue,
  });
  controllers.push(controller);
  controller.start();
  return controller;
}

function attachedIds(): unknown[] {
  return fixture.server.received
    .filter((entry) => entry.event === "card:attach")
    .map((entry) => (entry.payload as { instanceId: string }).instanceId);
}

const refused: WireError = {
  code: "not_found",
  message: "No such app in this conversation; reload the page.",
  retryable: false,
};

describe("CardController: taking turns to attach", () => {
  it("waits while the slot is taken, and a refused attach frees the slot for the next card", async () => {
    let answerFirst: (value: WireError) => void = () => undefined;
    fixture.server.answer("card:attach", (payload) =>
      payload.instanceId === "card-a"
        ? new Promise<WireError>((resolve) => (answerFirst = resolve))
        : refused,
    );
    const queue = new AttachQueue({ concurrency: 1 });
    startCard("card-a", queue);
    startCard("card-b", queue);
    expect(cardViewAccess.get("card-b")?.status).toBe("waiting");

    await fixture.server.next("card:attach");
    // Everything the page sent so far has arrived: card-b has not sent its attach.
    await fixture.roundTrip();
    expect(attachedIds()).toEqual(["card-a"]);
    expect(cardViewAccess.get("card-a")?.status).toBe("attaching");
    expect(cardViewAccess.get("card-b")?.status).toBe("waiting");

    answerFirst(refused);
    const second = await fixture.server.next("card:attach", 1);
    expect(second.payload).toEqual({ instanceId: "card-b" });
    expect(cardViewAccess.get("card-a")).toMatchObject({
      status: "error",
      error: refused.message,
    });
    await fixture.roundTrip();
    expect(cardViewAccess.get("card-b")).toMatchObject({
      status: "error",
      error: refused.message,
    });
    expect(queue.activeCount).toBe(0);
    expect(queue.waitingCount).toBe(0);
  });

  it("a card torn down while it waits leaves the queue and sends nothing", async () => {
    fixture.server.answer("card:attach", () => refused);
    const queue = new AttachQueue({ concurrency: 1 });
    const held = queue.enter(null);
    expect(await held.granted).toBe(true);

    const waiting = startCard("card-w", queue);
    expect(cardViewAccess.get("card-w")?.status).toBe("waiting");
    expect(queue.waitingCount).toBe(1);

    await waiting.dispose("unmounted");
    expect(queue.waitingCount).toBe(0);
    expect(cardViewAccess.get("card-w")?.status).toBe("closed");

    held.release();
    await fixture.roundTrip();
    expect(queue.activeCount).toBe(0);
    expect(
      fixture.server.received.filter(
        (entry) => entry.event === "card:attach" || entry.event === "card:teardown",
      ),
    ).toEqual([]);
  });
});
