import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { SocketProvider } from "../socket/socket-context";
import type { FakeSocket } from "./fake-socket";

// Tell React this is a test environment, so `act` works without warnings.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A rendered tree and how to take it down. */
export interface Rendered {
  container: HTMLElement;
  root: Root;
  unmount(): Promise<void>;
}

/**
 * Renders `ui` under a {@link SocketProvider} holding `socket`, into a fresh element of the body.
 *
 * @returns the container and an unmount function.
 */
export async function render(
  ui: ReactNode,
  socket: FakeSocket,
  retry: () => void = () => undefined,
): Promise<Rendered> {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(<SocketProvider value={{ socket, retry }}>{ui}</SocketProvider>);
  });
  return {
    container,
    root,
    async unmount() {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** Runs `action` inside `act`, then lets pending promises settle. */
export async function act0(action: () => void = () => undefined): Promise<void> {
  await act(async () => {
    action();
  });
}

/**
 * Waits until `condition` holds, letting React and pending promises run between checks. Bounded:
 * it gives up after `attempts` rounds of the microtask queue, never waiting on a clock.
 *
 * @throws an Error naming `what` when the condition never held.
 */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  attempts = 100,
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return;
    await act(async () => {
      await Promise.resolve();
    });
  }
  if (!condition()) throw new Error(`Timed out waiting until ${what}.`);
}

/** The element with a `data-testid`, or an Error naming it. */
export function byTestId<T extends HTMLElement = HTMLElement>(
  container: ParentNode,
  testId: string,
): T {
  const element = container.querySelector<T>(`[data-testid="${testId}"]`);
  if (element === null) throw new Error(`No element with data-testid="${testId}".`);
  return element;
}

/** Every element with a `data-testid`. */
export function allByTestId<T extends HTMLElement = HTMLElement>(
  container: ParentNode,
  testId: string,
): T[] {
  return [...container.querySelectorAll<T>(`[data-testid="${testId}"]`)];
}

/** Types into a text box or text area the way a person does (React sees an `input` event). */
export async function typeInto(
  element: HTMLInputElement | HTMLTextAreaElement,
  value: string,
): Promise<void> {
  const prototype =
    element instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(prototype, "value")?.set;
  await act(async () => {
    setter?.call(element, value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Presses a key on an element (keydown, bubbling, cancelable). */
export async function pressKey(
  element: HTMLElement,
  key: string,
  options: KeyboardEventInit = {},
): Promise<KeyboardEvent> {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...options });
  await act(async () => {
    element.dispatchEvent(event);
  });
  return event;
}

/** Clicks an element. */
export async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.click();
  });
}

/**
 * Moves the focus to `element` as the person's Tab does: a Tab keydown on the focused element,
 * then, unless a handler took the key (a dialog's focus trap moves the focus itself), the focus
 * move the browser would make (jsdom makes none), then the keyup.
 *
 * @throws an Error when the focus did not end on `element`.
 */
export async function tabTo(element: HTMLElement, options: KeyboardEventInit = {}): Promise<void> {
  const from =
    document.activeElement instanceof HTMLElement ? document.activeElement : document.body;
  await act(async () => {
    const down = new KeyboardEvent("keydown", {
      key: "Tab",
      bubbles: true,
      cancelable: true,
      ...options,
    });
    from.dispatchEvent(down);
    if (!down.defaultPrevented) element.focus();
    element.dispatchEvent(new KeyboardEvent("keyup", { key: "Tab", bubbles: true }));
  });
  if (document.activeElement !== element) throw new Error("The Tab did not reach the element.");
}
