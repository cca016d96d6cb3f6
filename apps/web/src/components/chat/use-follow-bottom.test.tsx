// @vitest-environment jsdom
// When the chat's list follows its end. jsdom has no layout, so the list here is a hand-built one
// with the geometry a browser would give it (600 px shown of its content) and a resize observer the
// test reports sizes through: the hook's decisions are what is tested, the browser's layout is
// the e2e suite's (e2e/tests/follow-end.spec.ts).
import { act, type RefObject, type UIEvent, useEffect } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// For `act` without warnings.
import "../../test-support/render";
import { useFollowBottom } from "./use-follow-bottom";

/** Resize observers the test reports sizes through, as the browser would after a layout. */
class TestResizeObserver {
  static all: TestResizeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    TestResizeObserver.all.push(this);
  }
  observe(target: Element): void {
    this.targets.add(target);
  }
  unobserve(target: Element): void {
    this.targets.delete(target);
  }
  disconnect(): void {
    this.targets.clear();
  }
  /** Reports that `resized` changed size, to each observer watching any of them. */
  static report(...resized: Element[]): void {
    for (const observer of TestResizeObserver.all) {
      const entries = resized
        .filter((target) => observer.targets.has(target))
        .map((target) => ({ target }) as ResizeObserverEntry);
      if (entries.length > 0) observer.callback(entries, observer as unknown as ResizeObserver);
    }
  }
}

/** A list showing 600 px of `content` px, with a column of items, as message-list.tsx has. */
function scrollingList(itemCount: number): {
  list: HTMLElement;
  column: HTMLElement;
  items: HTMLElement[];
  grow(pixels: number): void;
} {
  const list = document.createElement("div");
  const column = document.createElement("div");
  list.append(column);
  const items = Array.from({ length: itemCount }, () => document.createElement("div"));
  column.append(...items);
  document.body.append(list);
  let content = 2_000;
  let top = 0;
  const clamp = (wanted: number) => Math.max(0, Math.min(wanted, content - 600));
  Object.defineProperties(list, {
    scrollHeight: { get: () => content },
    clientHeight: { value: 600 },
    scrollTop: {
      get: () => top,
      set: (wanted: number) => {
        top = clamp(wanted);
      },
    },
    scrollTo: {
      value: (options: ScrollToOptions) => {
        top = clamp(options.top ?? top);
      },
    },
  });
  return {
    list,
    column,
    items,
    grow(pixels) {
      content += pixels;
    },
  };
}

let handleScroll: (event: UIEvent<HTMLElement>) => void = () => undefined;

function Followed(props: { list: RefObject<HTMLElement>; tail: string }) {
  const handler = useFollowBottom(props.list, "conversation-1", props.tail);
  useEffect(() => {
    handleScroll = handler;
  }, [handler]);
  return null;
}

let root: Root | null = null;

async function follow(list: HTMLElement, tail: string): Promise<void> {
  root ??= createRoot(document.createElement("div"));
  const rendered = root;
  await act(async () => rendered.render(<Followed list={{ current: list }} tail={tail} />));
}

/** The person (or a script) scrolls the list to `top`; the browser then fires `scroll`. */
function scrollTo(list: HTMLElement, top: number): void {
  list.scrollTop = top;
  handleScroll({ currentTarget: list } as UIEvent<HTMLElement>);
}

/** Opens the list, then adds content once: the opening is over, as after a first reply. */
async function followedAfterOpening(list: HTMLElement): Promise<void> {
  await follow(list, "1");
  expect(list.scrollTop).toBe(1_400);
  await follow(list, "2");
  scrollTo(list, list.scrollTop);
}

beforeEach(() => {
  vi.stubGlobal("ResizeObserver", TestResizeObserver);
});

afterEach(async () => {
  const rendered = root;
  if (rendered !== null) await act(async () => rendered.unmount());
  root = null;
  TestResizeObserver.all = [];
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

describe("useFollowBottom", () => {
  it("keeps the end in view when the last item grows while the person is at the end", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await followedAfterOpening(list);
    // The last card's frame grows to its view's height: 500 px more below the fold.
    grow(500);
    TestResizeObserver.report(column, items[2]!);
    expect(list.scrollTop).toBe(1_900);
  });

  it("moves nothing when an item above the last one grows", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await followedAfterOpening(list);
    // The browser's scroll anchoring keeps what is shown in place; the hook adds nothing.
    grow(500);
    TestResizeObserver.report(column, items[1]!);
    expect(list.scrollTop).toBe(1_400);
  });

  it("never moves a person who scrolled up, until they scroll back to the end", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await followedAfterOpening(list);
    scrollTo(list, 1_000);
    grow(500);
    TestResizeObserver.report(column, items[2]!);
    expect(list.scrollTop).toBe(1_000);
    // Back at the end (within the margin): the end is followed again.
    scrollTo(list, 1_850);
    grow(500);
    TestResizeObserver.report(column, items[2]!);
    expect(list.scrollTop).toBe(2_400);
  });

  it("moves nothing when the list moved up before its scroll event came (a click's scroll)", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await followedAfterOpening(list);
    list.scrollTop = 900;
    grow(500);
    TestResizeObserver.report(column, items[2]!);
    expect(list.scrollTop).toBe(900);
  });

  it("follows the item that is last now: a new one at the end, no longer the one before it", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await followedAfterOpening(list);
    const added = document.createElement("div");
    column.append(added);
    // The observer of the list's children hears of the new item after the current task.
    await act(async () => {
      await Promise.resolve();
    });
    grow(300);
    TestResizeObserver.report(column, items[2]!);
    expect(list.scrollTop).toBe(1_400);
    TestResizeObserver.report(column, added);
    expect(list.scrollTop).toBe(1_700);
  });

  it("keeps the end while an opened list settles, whichever item grows", async () => {
    const { list, column, items, grow } = scrollingList(3);
    await follow(list, "1");
    grow(500);
    TestResizeObserver.report(column, items[0]!);
    expect(list.scrollTop).toBe(1_900);
    // Anything the person does in the list ends the opening.
    list.dispatchEvent(new Event("wheel"));
    grow(500);
    TestResizeObserver.report(column, items[0]!);
    expect(list.scrollTop).toBe(1_900);
  });
});
