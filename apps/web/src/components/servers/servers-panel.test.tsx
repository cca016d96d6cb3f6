// @vitest-environment jsdom
// The person reads their servers' states, connects and disconnects them.
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { unsafeSignInAddressMessage } from "../../actions/sign-in-address";
import { bindServerEvents } from "../../socket/bind-server-events";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  act0,
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
  waitUntil,
} from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { FakePopup, serverStatus, stubWindowOpen } from "../../test-support/server-sign-in";
import { disconnectQuestion } from "./server-row";
import { ServersPanel } from "./servers-panel";

const hostile = '<img src=x onerror="globalThis.pwned=1"> Sign in again.';

const servers = [
  serverStatus("mail", {
    state: "connected",
    scopes: ["mail.read", "mail.send"],
    issuer: "https://login.example.com/tenant",
  }),
  serverStatus("tasks", { reason: hostile }),
  serverStatus("drive", { state: "connecting" }),
  serverStatus("files", { state: "failed", reason: "The server did not answer; try later." }),
  serverStatus("local", { remote: false, signIn: false, state: "idle" }),
];

function row(view: Rendered, name: string): HTMLElement {
  const found = allByTestId(view.container.ownerDocument, "server-row").find(
    (element) => element.dataset.server === name,
  );
  if (found === undefined) throw new Error(`No row for ${name}.`);
  return found;
}

describe("ServersPanel", () => {
  let socket: FakeSocket;
  let view: Rendered;

  beforeEach(async () => {
    resetStores();
    socket = new FakeSocket();
    socket.respond("servers:list", () => ({ ok: true, value: servers }));
    view = await render(<ServersPanel onClose={() => undefined} />, socket);
    await waitUntil(() => useHostStore.getState().servers !== null, "the list arrived");
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await view.unmount();
  });

  it("lists every server with its state in words, scopes, issuer and reasons", () => {
    expect(socket.sent("servers:list")).toEqual([{}]);
    const states = allByTestId(document, "server-row").map((element) => [
      element.dataset.server,
      byTestId(element, "server-state").textContent,
    ]);
    expect(states).toEqual([
      ["mail", "Connected"],
      ["tasks", "Needs sign-in"],
      ["drive", "Signing in…"],
      ["files", "Failed"],
      ["local", "Not started"],
    ]);
    expect(byTestId(row(view, "mail"), "server-scopes").textContent).toBe(
      "Granted: mail.readmail.send",
    );
    expect(byTestId(row(view, "mail"), "server-issuer").textContent).toBe(
      "Signed in at login.example.com",
    );
    expect(byTestId(row(view, "files"), "server-reason").textContent).toBe(
      "The server did not answer; try later.",
    );
    // Connect for sign-in servers not connected, Disconnect for the connected one, none for local.
    expect(allByTestId(row(view, "mail"), "server-connect")).toHaveLength(0);
    expect(byTestId(row(view, "mail"), "server-disconnect").getAttribute("aria-label")).toBe(
      "Disconnect mail",
    );
    expect(byTestId(row(view, "tasks"), "server-connect").getAttribute("aria-label")).toBe(
      "Connect tasks",
    );
    expect(row(view, "local").querySelectorAll("button")).toHaveLength(0);
  });

  it("shows a reason as text, never as HTML", () => {
    const reason = byTestId(row(view, "tasks"), "server-reason");
    expect(reason.textContent).toBe(hostile);
    expect(reason.querySelector("img")).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
  });

  it("Connect opens the popup in the click, cuts its opener, then loads the sign-in page", async () => {
    const popup = new FakePopup();
    const calls = stubWindowOpen(popup);
    let openerWhenAsked: unknown = "not asked";
    socket.respond("server:connect", () => {
      openerWhenAsked = popup.opener;
      return { ok: true, value: { authorizationUrl: "https://login.example.com/authorize" } };
    });
    await click(byTestId(row(view, "tasks"), "server-connect"));
    expect(calls.map((call) => call.target)).toEqual(["mcp-sign-in-tasks"]);
    expect(openerWhenAsked).toBeNull();
    await waitUntil(() => popup.replaced.length === 1, "the popup is sent to the page");
    expect(popup.replaced).toEqual(["https://login.example.com/authorize"]);
    expect(byTestId(row(view, "tasks"), "server-state").textContent).toBe(
      "Signing in… (finish in the window that opened)",
    );
    // Cancel just closes the window.
    const cancel = byTestId(row(view, "tasks"), "server-sign-in-cancel");
    expect(cancel.getAttribute("aria-label")).toBe("Cancel signing in to tasks");
    await click(cancel);
    expect(popup.closed).toBe(true);
    expect(byTestId(row(view, "tasks"), "server-state").textContent).toBe("Needs sign-in");
  });

  it("refuses a sign-in page that is not https, closes the popup and says why", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => ({
      ok: true,
      value: { authorizationUrl: "javascript:alert(1)" },
    }));
    await click(byTestId(row(view, "tasks"), "server-connect"));
    await waitUntil(() => popup.closed, "the popup is closed");
    expect(popup.replaced).toEqual([]);
    const message = byTestId(row(view, "tasks"), "server-message");
    expect(message.getAttribute("role")).toBe("alert");
    expect(message.textContent).toBe(unsafeSignInAddressMessage("tasks"));
  });

  it("shows the error sentence of a refused Connect", async () => {
    stubWindowOpen(new FakePopup());
    socket.respond("server:connect", () => ({
      ok: false,
      error: wireError("unavailable", "The authorization server cannot be reached; try later."),
    }));
    await click(byTestId(row(view, "tasks"), "server-connect"));
    await waitUntil(
      () => row(view, "tasks").querySelector('[data-testid="server-message"]') !== null,
      "the sentence shows",
    );
    expect(byTestId(row(view, "tasks"), "server-message").textContent).toBe(
      "The authorization server cannot be reached; try later.",
    );
  });

  it("offers a link to the sign-in page when the browser blocked the popup", async () => {
    stubWindowOpen(null);
    socket.respond("server:connect", () => ({
      ok: true,
      value: { authorizationUrl: "https://login.example.com/authorize" },
    }));
    await click(byTestId(row(view, "tasks"), "server-connect"));
    await waitUntil(
      () => row(view, "tasks").querySelector('[data-testid="server-sign-in-link"]') !== null,
      "the link shows",
    );
    const link = byTestId<HTMLAnchorElement>(row(view, "tasks"), "server-sign-in-link");
    expect(link.textContent).toBe("Open the sign-in page");
    expect(link.href).toBe("https://login.example.com/authorize");
    expect(link.target).toBe("_blank");
    expect(link.rel).toBe("noopener noreferrer");
  });

  it("asks before it disconnects, and says what happened", async () => {
    socket.respond("server:disconnect", () => ({
      ok: true,
      value: { disconnected: true, revoked: true },
    }));
    await click(byTestId(row(view, "mail"), "server-disconnect"));
    expect(socket.sent("server:disconnect")).toEqual([]);
    expect(byTestId(row(view, "mail"), "server-disconnect-question").textContent).toBe(
      "Disconnect mail? Its tools leave your chats until you connect again.",
    );
    expect(disconnectQuestion("mail")).toBe(
      "Disconnect mail? Its tools leave your chats until you connect again.",
    );
    expect(
      byTestId(row(view, "mail"), "server-disconnect-confirm").getAttribute("aria-label"),
    ).toBe("Yes, disconnect mail");
    expect(byTestId(row(view, "mail"), "server-disconnect-keep").getAttribute("aria-label")).toBe(
      "Keep connected to mail",
    );
    // "Keep connected" sends nothing.
    await click(byTestId(row(view, "mail"), "server-disconnect-keep"));
    expect(socket.sent("server:disconnect")).toEqual([]);
    await click(byTestId(row(view, "mail"), "server-disconnect"));
    await click(byTestId(row(view, "mail"), "server-disconnect-confirm"));
    await waitUntil(() => socket.sent("server:disconnect").length === 1, "disconnect is sent");
    expect(socket.sent("server:disconnect")).toEqual([{ name: "mail" }]);
    await waitUntil(
      () => row(view, "mail").querySelector('[data-testid="server-message"]') !== null,
      "the note shows",
    );
    expect(byTestId(row(view, "mail"), "server-message").textContent).toBe(
      "Disconnected from mail; its authorization server revoked the grant.",
    );
  });

  it("follows servers:state", async () => {
    const unbind = bindServerEvents(socket);
    await act0(() =>
      socket.serverEmit("servers:state", {
        servers: [serverStatus("tasks", { state: "connected", scopes: ["tasks.read"] })],
      }),
    );
    expect(allByTestId(document, "server-row").map((element) => element.dataset.state)).toEqual([
      "connected",
    ]);
    expect(byTestId(row(view, "tasks"), "server-state").textContent).toBe("Connected");
    unbind();
  });

  it("says when the list could not be read", async () => {
    await act0(() => useHostStore.setState({ servers: null }));
    socket.respond("servers:list", () => ({
      ok: false,
      error: wireError("unavailable", "This host does not offer that yet."),
    }));
    await view.unmount();
    view = await render(<ServersPanel onClose={() => undefined} />, socket);
    await waitUntil(
      () => document.querySelector('[data-testid="servers-error"]') !== null,
      "the error shows",
    );
    expect(byTestId(document, "servers-error").textContent).toBe(
      "Could not ask the server: This host does not offer that yet.",
    );
  });
});
