// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signOut } from "../../actions/sign-out";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import { type Rendered, render } from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { SignOutButton } from "./sign-out-button";

describe("signing out", () => {
  let view: Rendered | undefined;
  beforeEach(() => {
    resetStores();
    window.localStorage.setItem("mch-session-binding", "the-binding");
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it("shows the button only when the session says people can sign out", async () => {
    view = await render(<SignOutButton />, new FakeSocket());
    expect(view.container.querySelector('[data-testid="sign-out"]')).toBeNull();
    await view.unmount();
    useHostStore.setState({ signOut: true, user: { id: "oidc-x", name: "Ada" } });
    view = await render(<SignOutButton />, new FakeSocket());
    const button = view.container.querySelector('[data-testid="sign-out"]');
    expect(button?.textContent).toBe("Sign out");
    expect(button?.getAttribute("title")).toBe("Signed in as Ada; sign out");
  });

  it("posts the logout with the binding, forgets the binding and goes where the server says", async () => {
    const fetched = vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ ok: true, value: { next: "http://id.example/end" } }), {
          status: 200,
        }),
      ),
    );
    vi.stubGlobal("fetch", fetched);
    const visited: string[] = [];
    await signOut((url) => visited.push(url));
    expect(fetched).toHaveBeenCalledWith("/auth/logout", {
      method: "POST",
      headers: { "x-mch-session-binding": "the-binding" },
      credentials: "same-origin",
    });
    expect(visited).toEqual(["http://id.example/end"]);
    expect(window.localStorage.getItem("mch-session-binding")).toBeNull();
  });

  it("stays on the page with a notice when the server did not sign out", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("{}", { status: 403 })));
    const visited: string[] = [];
    await signOut((url) => visited.push(url));
    expect(visited).toEqual([]);
    expect(useHostStore.getState().notices.at(-1)?.message).toContain("Signing out failed");
    expect(window.localStorage.getItem("mch-session-binding")).toBe("the-binding");
  });
});
