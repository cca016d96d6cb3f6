// The servers slice: the list as last heard, and when a sign-in this tab runs is over.
import { beforeEach, describe, expect, it } from "vitest";
import { resetStores } from "../test-support/reset-stores";
import { serverStatus } from "../test-support/server-sign-in";
import { useHostStore } from "./host-store";
import { serversNeedingSignIn } from "./servers-slice";

const store = useHostStore.getState;
const waiting = { step: "waiting", popup: null } as const;

describe("servers slice", () => {
  beforeEach(() => resetStores());

  it("starts with no list, then holds the last one heard", () => {
    expect(store().servers).toBeNull();
    store().setServersError("Not connected.");
    store().replaceServers([serverStatus("a"), serverStatus("b", { state: "connected" })]);
    expect(store().servers?.map((server) => server.name)).toEqual(["a", "b"]);
    expect(store().serversError).toBeNull();
    store().replaceServers([serverStatus("b", { state: "failed", reason: "Down." })]);
    expect(store().servers?.map((server) => server.name)).toEqual(["b"]);
  });

  it("keeps a sign-in while its server still needs sign-in or is connecting", () => {
    store().replaceServers([serverStatus("a")]);
    store().setServerSignIn("a", waiting);
    expect(store().replaceServers([serverStatus("a"), serverStatus("b")])).toEqual([]);
    expect(store().replaceServers([serverStatus("a", { state: "connecting" })])).toEqual([]);
    expect(store().serverSignIns.a).toEqual(waiting);
  });

  it("ends a sign-in whose server is gone from the list", () => {
    store().replaceServers([serverStatus("a")]);
    store().setServerSignIn("a", waiting);
    expect(store().replaceServers([])).toEqual([waiting]);
    expect(store().serverSignIns).toEqual({});
  });

  it("forgets a refused Connect's sentence once the server is connected, not a note", () => {
    store().setServerMessage("a", { kind: "error", text: "Refused." });
    store().setServerMessage("b", { kind: "note", text: "Disconnected." });
    store().replaceServers([
      serverStatus("a", { state: "connected" }),
      serverStatus("b", { state: "connected" }),
    ]);
    expect(store().serverMessages).toEqual({ b: { kind: "note", text: "Disconnected." } });
  });

  it("counts the servers that need sign-in, and remembers dismissed bars", () => {
    expect(serversNeedingSignIn(null)).toEqual([]);
    const list = [serverStatus("a"), serverStatus("b", { state: "connected" }), serverStatus("c")];
    expect(serversNeedingSignIn(list).map((server) => server.name)).toEqual(["a", "c"]);
    store().dismissSignIn("a");
    expect(store().dismissedSignIns).toEqual({ a: true });
  });
});
