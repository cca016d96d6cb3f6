import type { ListToolsResult } from "@modelcontextprotocol/client";
import {
  McpPermissionDeniedError,
  McpServerError,
  McpServerExitedError,
  McpTimeoutError,
} from "@mcp-chat-host/connection";
import { describe, expect, it } from "vitest";
import { toWireError } from "../errors/to-wire-error";
import { INTERNAL_ERROR_MESSAGE } from "../errors/internal-error";
import { ConnectionSource, MAX_LIST_PAGES } from "./connection-source";
import { SourceError } from "./source-error";
import type { ConnectionSession } from "./connection-session";

/**
 * A misbehaving session, for fault injection: pages of tools by cursor, scripted errors, and a
 * hook to announce a changed tool list. The real session is exercised in connection-source.test.ts.
 */
function session(options: {
  pages?: (cursor: string | undefined) => ListToolsResult;
  fail?: () => unknown;
  relaysToolChanges?: boolean;
}) {
  const closeListeners = new Set<() => void>();
  const toolListeners = new Set<() => void>();
  const listCursors: (string | undefined)[] = [];
  let state = "idle";
  const fake: ConnectionSession = {
    server: "fake",
    get state() {
      return state;
    },
    async listTools(cursor) {
      listCursors.push(cursor);
      return (options.pages ?? (() => ({ tools: [] })))(cursor);
    },
    async callTool() {
      throw options.fail?.();
    },
    async readResource() {
      throw options.fail?.();
    },
    async listResources() {
      return { resources: [] };
    },
    async listResourceTemplates() {
      return { resourceTemplates: [] };
    },
    async listPrompts() {
      return { prompts: [] };
    },
    async getPrompt() {
      throw options.fail?.();
    },
    async close() {
      state = "closed";
      for (const listener of closeListeners) listener();
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  };
  if (options.relaysToolChanges === true) {
    fake.onToolsChanged = (listener) => {
      toolListeners.add(listener);
      return () => toolListeners.delete(listener);
    };
  }
  return {
    fake,
    listCursors,
    announceToolsChanged: () => toolListeners.forEach((listener) => listener()),
    endFromServer: () => {
      state = "closed";
      closeListeners.forEach((listener) => listener());
    },
  };
}

const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });

describe("ConnectionSource with a misbehaving session", () => {
  it("follows nextCursor across pages and caches the whole list", async () => {
    const { fake, listCursors } = session({
      pages: (cursor) =>
        cursor === undefined
          ? { tools: [tool("a")], nextCursor: "2" }
          : cursor === "2"
            ? { tools: [tool("b")], nextCursor: "3" }
            : { tools: [tool("c")] },
    });
    const source = new ConnectionSource(fake);
    expect((await source.tools()).map((entry) => entry.name)).toEqual(["a", "b", "c"]);
    expect(listCursors).toEqual([undefined, "2", "3"]);
    await source.tools();
    expect(listCursors).toHaveLength(3);
    await source.tools({ refresh: true });
    expect(listCursors).toHaveLength(6);
  });

  it("stops a server that repeats a cursor", async () => {
    const { fake } = session({ pages: () => ({ tools: [tool("a")], nextCursor: "again" }) });
    await expect(new ConnectionSource(fake).tools()).rejects.toMatchObject({
      code: "protocol",
      message: /same tools\/list cursor twice/,
    });
  });

  it(`stops after ${MAX_LIST_PAGES} pages`, async () => {
    const { fake, listCursors } = session({
      pages: (cursor) => ({ tools: [tool("a")], nextCursor: `${Number(cursor ?? 0) + 1}` }),
    });
    await expect(new ConnectionSource(fake).tools()).rejects.toMatchObject({ code: "protocol" });
    expect(listCursors).toHaveLength(MAX_LIST_PAGES);
  });

  it("drops the cached list when the session relays tools/list_changed", async () => {
    let version = 1;
    const { fake, announceToolsChanged } = session({
      pages: () => ({ tools: [tool(`v${version}`)] }),
      relaysToolChanges: true,
    });
    const source = new ConnectionSource(fake);
    let changes = 0;
    source.onToolsChanged(() => (changes += 1));
    expect((await source.tools()).map((entry) => entry.name)).toEqual(["v1"]);
    version = 2;
    announceToolsChanged();
    expect(changes).toBe(1);
    expect(source.cachedTools()).toBeUndefined();
    expect((await source.tools()).map((entry) => entry.name)).toEqual(["v2"]);
  });

  it("maps the connection package's errors to source error codes", async () => {
    const serverError = new McpServerError("fake", { rpcCode: -32602, message: "no such tool" });
    const protocol = await new ConnectionSource(session({ fail: () => serverError }).fake)
      .callTool("x", {})
      .catch((error: unknown) => error);
    expect(protocol).toBeInstanceOf(SourceError);
    expect(protocol).toMatchObject({
      code: "protocol",
      rpcCode: -32602,
      message: serverError.message,
      cause: serverError,
    });
    await expect(
      new ConnectionSource(session({ fail: () => new McpTimeoutError() }).fake).readResource(
        "ui://a",
      ),
    ).rejects.toMatchObject({ code: "timeout" });
    const exited = new McpServerExitedError("fake", { exitCode: 1, signal: null });
    await expect(
      new ConnectionSource(session({ fail: () => exited }).fake).callTool("x", {}),
    ).rejects.toMatchObject({ code: "closed", message: exited.message });
    const denied = new McpPermissionDeniedError("tools", "delete");
    await expect(
      new ConnectionSource(session({ fail: () => denied }).fake).callTool("delete", {}),
    ).rejects.toMatchObject({ code: "refused" });
  });

  it("throws on an error the connection package did not raise, for the mapping to make internal", async () => {
    // Shaped like a connection error, but not one: duck typing would have passed its message on.
    const lookalike = Object.assign(new Error("secret detail"), { code: "closed" });
    const thrown = await new ConnectionSource(session({ fail: () => lookalike }).fake)
      .callTool("x", {})
      .catch((error: unknown) => error);
    expect(thrown).toBe(lookalike);
    expect(toWireError(thrown)).toEqual({
      code: "internal",
      message: INTERNAL_ERROR_MESSAGE,
      retryable: false,
    });
  });

  it("reports a cancelled call as cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const { fake } = session({ fail: () => controller.signal.reason });
    await expect(
      new ConnectionSource(fake).callTool("x", {}, { signal: controller.signal }),
    ).rejects.toMatchObject({ code: "cancelled" });
  });

  it("closes when the session ends on the server's side", async () => {
    const { fake, endFromServer } = session({});
    const source = new ConnectionSource(fake);
    let closes = 0;
    source.onClose(() => (closes += 1));
    endFromServer();
    expect(source.closed).toBe(true);
    expect(closes).toBe(1);
    await expect(source.tools()).rejects.toMatchObject({ code: "closed" });
  });
});
