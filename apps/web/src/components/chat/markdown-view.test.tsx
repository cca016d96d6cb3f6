// @vitest-environment jsdom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MarkdownView } from "./markdown-view";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

async function renderText(text: string): Promise<HTMLElement> {
  const container = document.createElement("div");
  document.body.appendChild(container);
  await act(async () => createRoot(container).render(<MarkdownView text={text} />));
  return container;
}

describe("MarkdownView links", () => {
  it("asks before opening a link to this computer, and opens nothing on no", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const container = await renderText("[export](http://127.0.0.1:9000/export)");
    const link = container.querySelector("a")!;
    const event = new MouseEvent("click", { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(confirm).toHaveBeenCalledWith(
      "This link goes to 127.0.0.1:9000, an address on this computer, not to a site on the web. Open it anyway?",
    );
    expect(open).not.toHaveBeenCalled();
  });

  it("opens the local link without an opener when the person says yes", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const container = await renderText("[router](http://192.168.1.1/)");
    container
      .querySelector("a")!
      .dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    expect(open).toHaveBeenCalledWith("http://192.168.1.1/", "_blank", "noopener,noreferrer");
  });

  it("lets a link to the web through without asking", async () => {
    const confirm = vi.spyOn(window, "confirm");
    const container = await renderText("[docs](https://example.com/)");
    const event = new MouseEvent("click", { bubbles: true, cancelable: true });
    container.querySelector("a")!.dispatchEvent(event);
    expect(confirm).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
  });
});
