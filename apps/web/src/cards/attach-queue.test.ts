// @vitest-environment jsdom
// The attach queue on its own: turns in document order with cards near the viewport first, the
// concurrency cap, a freed slot going to the next card, and a card leaving while it waits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { AttachQueue, attachConcurrency, type AttachTicket } from "./attach-queue";

/** Lets the queue's scheduled step and the granted promises' reactions run. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await Promise.resolve();
}

/** Cards in the page, in document order. */
function cardElements(count: number): HTMLElement[] {
  const elements: HTMLElement[] = [];
  for (let index = 0; index < count; index += 1) {
    const element = document.createElement("section");
    element.id = `card-${index}`;
    document.body.appendChild(element);
    elements.push(element);
  }
  return elements;
}

/** Records the order in which tickets are granted (by label). */
function recordGrants(tickets: Array<[string, AttachTicket]>): string[] {
  const granted: string[] = [];
  for (const [label, ticket] of tickets) {
    void ticket.granted.then((isGranted) => {
      if (isGranted) granted.push(label);
    });
  }
  return granted;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

describe("AttachQueue", () => {
  it("gives turns in document order, whatever the order of entry", async () => {
    const [first, second, third] = cardElements(3);
    const queue = new AttachQueue({ concurrency: 1 });
    const tickets: Array<[string, AttachTicket]> = [
      ["third", queue.enter(third ?? null)],
      ["first", queue.enter(first ?? null)],
      ["second", queue.enter(second ?? null)],
    ];
    const granted = recordGrants(tickets);
    await settle();
    expect(granted).toEqual(["first"]);
    for (let round = 0; round < 3; round += 1) {
      const active = tickets.find(([label]) => label === granted.at(-1))?.[1];
      active?.release();
      await settle();
    }
    expect(granted).toEqual(["first", "second", "third"]);
  });

  it("gives turns to the cards near the viewport first, then in document order", async () => {
    const elements = cardElements(6);
    const near = new Set(["card-4", "card-2"]);
    const queue = new AttachQueue({
      concurrency: 2,
      isNearViewport: (element) => near.has(element.id),
    });
    const tickets = elements.map(
      (element) => [element.id, queue.enter(element)] as [string, AttachTicket],
    );
    const granted = recordGrants(tickets);
    await settle();
    expect(granted).toEqual(["card-2", "card-4"]);
    // The person scrolled: the last card is near now, the second no longer matters.
    tickets[5]?.[1].setNearViewport(true);
    tickets[2]?.[1].release();
    await settle();
    expect(granted).toEqual(["card-2", "card-4", "card-5"]);
    tickets[4]?.[1].release();
    tickets[5]?.[1].release();
    await settle();
    expect(granted).toEqual(["card-2", "card-4", "card-5", "card-0", "card-1"]);
  });

  it("never lets more than the cap hold a slot, and a released slot goes to the next card", async () => {
    const elements = cardElements(10);
    const queue = new AttachQueue();
    const tickets = elements.map(
      (element) => [element.id, queue.enter(element)] as [string, AttachTicket],
    );
    const granted = recordGrants(tickets);
    // Even with free slots, nobody gets a turn before the queue's step: all of a render compete.
    expect(tickets.every(([, ticket]) => ticket.waiting)).toBe(true);
    await settle();
    expect(attachConcurrency).toBe(4);
    expect(queue.activeCount).toBe(4);
    expect(queue.waitingCount).toBe(6);
    expect(granted).toEqual(["card-0", "card-1", "card-2", "card-3"]);

    // A failed attach releases its ticket like a finished one: the slot goes on.
    tickets[1]?.[1].release();
    tickets[1]?.[1].release(); // a second release changes nothing
    await settle();
    expect(queue.activeCount).toBe(4);
    expect(granted).toEqual(["card-0", "card-1", "card-2", "card-3", "card-4"]);

    for (const [, ticket] of tickets) ticket.release();
    await settle();
    expect(queue.activeCount).toBe(0);
    expect(queue.waitingCount).toBe(0);
  });

  it("a card leaving while it waits is removed from the queue and never gets a turn", async () => {
    const elements = cardElements(3);
    const queue = new AttachQueue({ concurrency: 1 });
    const holder = queue.enter(elements[0] ?? null);
    const leaving = queue.enter(elements[1] ?? null);
    const staying = queue.enter(elements[2] ?? null);
    await settle();
    expect(await holder.granted).toBe(true);
    expect(queue.waitingCount).toBe(2);

    leaving.release();
    expect(await leaving.granted).toBe(false);
    expect(leaving.waiting).toBe(false);
    expect(queue.waitingCount).toBe(1);
    // Its release freed no slot: the holder still has the only one.
    await settle();
    expect(staying.waiting).toBe(true);

    holder.release();
    expect(await staying.granted).toBe(true);
    expect(queue.activeCount).toBe(1);
  });

  it("orders cards without an element after those with one, in order of entry", async () => {
    const [element] = cardElements(1);
    const queue = new AttachQueue({ concurrency: 1 });
    const tickets: Array<[string, AttachTicket]> = [
      ["loose-1", queue.enter(null)],
      ["loose-2", queue.enter(null)],
      ["placed", queue.enter(element ?? null)],
    ];
    const granted = recordGrants(tickets);
    for (let round = 0; round < 3; round += 1) {
      await settle();
      tickets.find(([label]) => label === granted.at(-1))?.[1].release();
    }
    await settle();
    expect(granted).toEqual(["placed", "loose-1", "loose-2"]);
  });

  it("calls the page's queueMicrotask as a plain function (browsers refuse it as a method)", async () => {
    const original = globalThis.queueMicrotask;
    // Like a browser: called with any `this` but the global object, it throws.
    vi.stubGlobal("queueMicrotask", function (this: unknown, step: () => void) {
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      original(step);
    });
    const queue = new AttachQueue();
    const ticket = queue.enter(null);
    expect(await ticket.granted).toBe(true);
  });

  it("refuses a concurrency that is not a positive whole number", () => {
    expect(() => new AttachQueue({ concurrency: 0 })).toThrow(RangeError);
    expect(() => new AttachQueue({ concurrency: 1.5 })).toThrow(RangeError);
  });
});
