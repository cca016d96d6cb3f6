// @vitest-environment jsdom
/// <reference lib="dom" />
// The realm lockdown's text, assembled from its parts (srcdoc-stripping-source.ts,
// prototype-wrappers-source.ts), run on this jsdom window. jsdom has no WebRTC and no Trusted
// Types, so the first is faked and the second is not checked here; the browser checks of both
// are in e2e (sandbox-escape.spec.ts).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { prototypeWrappersSource } from "./prototype-wrappers-source";
import { lockdownWarningPrefix, realmLockdownSource } from "./realm-lockdown";
import { srcdocStrippingSource } from "./srcdoc-stripping-source";
import { viewLoaderScript } from "./view-script";

interface Lockdown {
  prepare(html: string): string;
}

const fakeWebRtc = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel"];
let lockdown: Lockdown;
const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);

function lockRealm(): (win: Window) => Lockdown {
  return new Function(`return (${realmLockdownSource});`)() as (win: Window) => Lockdown;
}

function declaredFunctions(text: string): string[] {
  return [...text.matchAll(/^ {2}function (\w+)\(/gm)].map((match) => match[1] ?? "");
}

function frameWithSrcdoc(): HTMLIFrameElement {
  const frame = document.createElement("iframe");
  frame.setAttribute("srcdoc", "<script>parent.stolen = true</script>");
  return frame;
}

beforeAll(() => {
  const globals = window as unknown as Record<string, unknown>;
  for (const name of fakeWebRtc) globals[name] = function FakeWebRtc() {};
  lockdown = lockRealm()(window);
});

describe("realm lockdown source", () => {
  it("is one function whose body holds every part, each function declared once", () => {
    expect(realmLockdownSource.startsWith("function lockRealm(rootWindow) {")).toBe(true);
    expect(realmLockdownSource).toContain(srcdocStrippingSource);
    expect(realmLockdownSource).toContain(prototypeWrappersSource);
    expect(viewLoaderScript).toContain(realmLockdownSource);
    const names = declaredFunctions(realmLockdownSource);
    expect(names).toEqual(expect.arrayContaining(declaredFunctions(srcdocStrippingSource)));
    expect(names).toEqual(expect.arrayContaining(declaredFunctions(prototypeWrappersSource)));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("stripTree");
    expect(names).toContain("wrapWrites");
  });
});

describe("realm lockdown in a window", () => {
  it("removes every RTC global", () => {
    for (const name of fakeWebRtc) expect(name in window).toBe(false);
  });

  it("prepare removes srcdoc from the page's frames, template contents included", () => {
    const html =
      '<!doctype html><html><head></head><body><iframe srcdoc="<p>x</p>"></iframe>' +
      '<template><iframe srcdoc="<p>y</p>"></iframe></template></body></html>';
    const prepared = lockdown.prepare(html);
    expect(prepared.startsWith("<!doctype html>")).toBe(true);
    expect(prepared).not.toMatch(/srcdoc/i);
    expect(prepared).toContain("<iframe>");
  });

  it("prepare leaves a page without srcdoc frames unchanged", () => {
    const html = "<p>srcdoc is only a word here</p><iframe src='https://example.com/'></iframe>";
    expect(lockdown.prepare(html)).toBe(html);
  });

  it("strips srcdoc from a frame before an insertion connects it, and says so", () => {
    warn.mockClear();
    const frame = frameWithSrcdoc();
    document.body.appendChild(frame);
    expect(frame.hasAttribute("srcdoc")).toBe(false);
    expect(String(warn.mock.calls[0]?.[0])).toContain(lockdownWarningPrefix);
    frame.remove();
  });

  it("strips srcdoc from frames nested in an inserted subtree", () => {
    const wrapper = document.createElement("div");
    wrapper.append(frameWithSrcdoc());
    document.body.append(wrapper);
    expect(wrapper.querySelector("iframe")?.hasAttribute("srcdoc")).toBe(false);
    wrapper.remove();
  });

  it("strips srcdoc written to a connected frame's attribute", () => {
    const frame = document.createElement("iframe");
    document.body.appendChild(frame);
    frame.setAttribute("srcdoc", "<p>x</p>");
    expect(frame.hasAttribute("srcdoc")).toBe(false);
    frame.remove();
  });

  it("refuses the srcdoc property", () => {
    const frame = document.createElement("iframe");
    frame.srcdoc = "<p>x</p>";
    expect(frame.hasAttribute("srcdoc")).toBe(false);
  });

  it("watches shadow roots: a srcdoc frame made with innerHTML loses it", async () => {
    const host = document.createElement("div");
    document.body.appendChild(host);
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = '<iframe srcdoc="<p>x</p>"></iframe>';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.querySelector("iframe")?.hasAttribute("srcdoc")).toBe(false);
    host.remove();
  });

  it("keeps the wrapped methods' names", () => {
    expect(Node.prototype.appendChild.name).toBe("appendChild");
    expect(Element.prototype.setAttribute.name).toBe("setAttribute");
  });
});
