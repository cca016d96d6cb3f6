import type { ServerStatus } from "@mcp-chat-host/protocol";
import type { HostSliceCreator } from "./host-state";
import type { ServerSignIn, ServersSlice } from "./types/servers";

/** Whether a sign-in is over, from its server's state before and now (undefined: not listed). */
function signInEnded(before: ServerStatus | undefined, now: ServerStatus | undefined): boolean {
  if (now === undefined) return true;
  if (now.state === "connected" || now.state === "failed") return true;
  return before?.state === "connecting" && now.state === "needs-sign-in";
}

/** A record without one key. */
function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** The servers slice. */
export const createServersSlice: HostSliceCreator<ServersSlice> = (set, get) => ({
  servers: null,
  serversError: null,
  serverSignIns: {},
  serverMessages: {},
  dismissedSignIns: {},
  replaceServers(servers) {
    const state = get();
    const before = new Map((state.servers ?? []).map((server) => [server.name, server]));
    const now = new Map(servers.map((server) => [server.name, server]));
    const ended: ServerSignIn[] = [];
    const serverSignIns: Record<string, ServerSignIn> = {};
    for (const [name, signIn] of Object.entries(state.serverSignIns)) {
      if (signInEnded(before.get(name), now.get(name))) ended.push(signIn);
      else serverSignIns[name] = signIn;
    }
    let serverMessages = state.serverMessages;
    for (const server of servers) {
      if (server.state === "connected" && serverMessages[server.name]?.kind === "error") {
        serverMessages = without(serverMessages, server.name);
      }
    }
    set({ servers, serversError: null, serverSignIns, serverMessages });
    return ended;
  },
  setServersError(message) {
    set({ serversError: message });
  },
  setServerSignIn(name, signIn) {
    set((state) => ({
      serverSignIns:
        signIn === null
          ? without(state.serverSignIns, name)
          : { ...state.serverSignIns, [name]: signIn },
    }));
  },
  setServerMessage(name, message) {
    set((state) => ({
      serverMessages:
        message === null
          ? without(state.serverMessages, name)
          : { ...state.serverMessages, [name]: message },
    }));
  },
  dismissSignIn(name) {
    set((state) => ({ dismissedSignIns: { ...state.dismissedSignIns, [name]: true } }));
  },
});

/** The servers that wait for the person to sign in (the header's badge, the chat's bar). */
export function serversNeedingSignIn(servers: ServerStatus[] | null): ServerStatus[] {
  return (servers ?? []).filter((server) => server.state === "needs-sign-in");
}
