// @vitest-environment jsdom
// The "Connect <server>" flow and Disconnect, without the components.
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useHostStore } from "../state/host-store";
import { serversHeard } from "../state/servers-heard";
import { FakeSocket } from "../test-support/fake-socket";
import { resetStores } from "../test-support/reset-stores";
import { FakePopup, serverStatus, stubWindowOpen } from "../test-support/server-sign-in";
import { disconnectedMessage, disconnectServer } from "./disconnect-server";
import { listServers } from "./list-servers";
import { cancelServerSignIn, signInLinkOpened, startServerSignIn } from "./server-sign-in";
import { unsafeSignInAddressMessage } from "./sign-in-address";

const page = "http://127.0.0.1:3000";
const store = useHostStore.getState;

describe("server sign-in", () => {
  let socket: FakeSocket;

  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
    serversHeard([serverStatus("notes")]);
  });
  afterEach(() => vi.restoreAllMocks());

  it("opens the popup and cuts its opener before it asks the server, then sends it to the page", async () => {
    const popup = new FakePopup();
    const calls = stubWindowOpen(popup);
    let openedBeforeAsking = false;
    socket.respond("server:connect", () => {
      openedBeforeAsking = calls.length === 1 && popup.opener === null;
      return { ok: true, value: { authorizationUrl: "https://login.example.com/authorize?a=1" } };
    });
    const pending = startServerSignIn(socket, "notes", page);
    // Before anything was awaited: still in the click's user activation.
    expect(calls).toEqual([
      { url: "about:blank", target: "mcp-sign-in-notes", features: "popup,width=520,height=720" },
    ]);
    expect(popup.opener).toBeNull();
    await pending;
    expect(openedBeforeAsking).toBe(true);
    expect(socket.sent("server:connect")).toEqual([{ name: "notes" }]);
    expect(popup.replaced).toEqual(["https://login.example.com/authorize?a=1"]);
    expect(popup.openerAtNavigation).toBeNull();
    expect(store().serverSignIns.notes).toEqual({ step: "waiting", popup });
  });

  it("refuses a sign-in page that is not https: closes the popup and says so", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => ({
      ok: true,
      value: { authorizationUrl: "file:///etc/passwd" },
    }));
    await startServerSignIn(socket, "notes", page);
    expect(popup.replaced).toEqual([]);
    expect(popup.closed).toBe(true);
    expect(store().serverSignIns.notes).toBeUndefined();
    expect(store().serverMessages.notes).toEqual({
      kind: "error",
      text: unsafeSignInAddressMessage("notes"),
    });
  });

  it("closes the popup and shows the server's sentence when it refuses", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => ({
      ok: false,
      error: wireError("unavailable", "The authorization server cannot be reached; try later."),
    }));
    await startServerSignIn(socket, "notes", page);
    expect(popup.closed).toBe(true);
    expect(store().serverMessages.notes?.text).toBe(
      "The authorization server cannot be reached; try later.",
    );
  });

  it("offers a link when the browser blocked the popup", async () => {
    stubWindowOpen(null);
    socket.respond("server:connect", () => ({
      ok: true,
      value: { authorizationUrl: "https://login.example.com/authorize" },
    }));
    await startServerSignIn(socket, "notes", page);
    expect(store().serverSignIns.notes).toEqual({
      step: "link",
      url: "https://login.example.com/authorize",
    });
    signInLinkOpened("notes");
    expect(store().serverSignIns.notes).toEqual({ step: "waiting", popup: null });
  });

  it("closes the popup when the server needed no sign-in", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => ({ ok: true, value: { connected: true } }));
    await startServerSignIn(socket, "notes", page);
    expect(popup.closed).toBe(true);
    expect(store().serverSignIns.notes).toBeUndefined();
  });

  it("does not open the page of a sign-in cancelled while the server answered", async () => {
    const popup = new FakePopup();
    stubWindowOpen(popup);
    socket.respond("server:connect", () => {
      cancelServerSignIn("notes");
      return { ok: true, value: { authorizationUrl: "https://login.example.com/authorize" } };
    });
    await startServerSignIn(socket, "notes", page);
    expect(popup.closed).toBe(true);
    expect(popup.replaced).toEqual([]);
    expect(store().serverSignIns.notes).toBeUndefined();
  });

  it("ends the sign-in when servers:state says it is connected, failed, or back to needs sign-in", () => {
    for (const [between, after] of [
      ["connecting", "connected"],
      ["connecting", "failed"],
      ["connecting", "needs-sign-in"],
    ] as const) {
      const popup = new FakePopup();
      serversHeard([serverStatus("notes")]);
      store().setServerSignIn("notes", { step: "waiting", popup: popup as unknown as Window });
      serversHeard([serverStatus("notes", { state: between })]);
      expect(store().serverSignIns.notes).toBeDefined();
      serversHeard([serverStatus("notes", { state: after })]);
      expect(store().serverSignIns.notes).toBeUndefined();
      expect(popup.closed).toBe(true);
    }
  });

  it("lists the servers, or keeps why it could not", async () => {
    socket.respond("servers:list", () => ({
      ok: true,
      value: [serverStatus("notes", { state: "connected" })],
    }));
    await listServers(socket);
    expect(store().servers?.map((server) => server.state)).toEqual(["connected"]);
    socket.respond("servers:list", () => ({
      ok: false,
      error: wireError("unavailable", "This host does not offer that yet."),
    }));
    await listServers(socket);
    expect(store().serversError).toBe("This host does not offer that yet.");
  });

  it("disconnects, saying whether the grant was revoked, or why it failed", async () => {
    socket.respond("server:disconnect", () => ({
      ok: true,
      value: { disconnected: true, revoked: false },
    }));
    await disconnectServer(socket, "notes");
    expect(socket.sent("server:disconnect")).toEqual([{ name: "notes" }]);
    expect(store().serverMessages.notes).toEqual({
      kind: "note",
      text: disconnectedMessage("notes", false),
    });
    socket.respond("server:disconnect", () => ({
      ok: false,
      error: wireError("not_found", "That server is not configured; reload the page."),
    }));
    await disconnectServer(socket, "notes");
    expect(store().serverMessages.notes).toEqual({
      kind: "error",
      text: "That server is not configured; reload the page.",
    });
  });

  it("words the disconnect notes", () => {
    expect(disconnectedMessage("Notes", true)).toBe(
      "Disconnected from Notes; its authorization server revoked the grant.",
    );
    expect(disconnectedMessage("Notes", false)).toBe(
      "Disconnected from Notes. Its authorization server could not revoke the grant, so it stays valid there until it expires.",
    );
  });
});
