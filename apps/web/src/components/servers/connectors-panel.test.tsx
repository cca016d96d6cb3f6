// @vitest-environment jsdom
// The person adds a server of their own by its address (where the host allows it), reads the
// host's sentence when it refuses, and removes one they added after saying yes.
import { wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  allByTestId,
  byTestId,
  click,
  type Rendered,
  render,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { serverStatus } from "../../test-support/server-sign-in";
import { removeQuestion } from "./remove-control";
import { ServersPanel } from "./servers-panel";

const patterns = ["https://*.example.com/*"];

function rowOf(name: string): HTMLElement {
  const found = allByTestId(document, "server-row").find(
    (element) => element.dataset.server === name,
  );
  if (found === undefined) throw new Error(`No row for ${name}.`);
  return found;
}

describe("ServersPanel with servers of one's own", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let servers = [serverStatus("mine.example.com", { connector: true }), serverStatus("mail")];

  async function open(allowed: boolean): Promise<void> {
    socket.respond("servers:list", () => ({ ok: true, value: servers }));
    socket.respond("connectors:policy", () => ({
      ok: true,
      value: { allowed, patterns: allowed ? patterns : [] },
    }));
    view = await render(<ServersPanel onClose={() => undefined} />, socket);
    await waitUntil(() => useHostStore.getState().servers !== null, "the list arrived");
    await waitUntil(() => socket.sent("connectors:policy").length === 1, "the policy is asked");
  }

  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
    servers = [serverStatus("mine.example.com", { connector: true }), serverStatus("mail")];
  });
  afterEach(async () => {
    await view.unmount();
  });

  it("shows no form where the host does not allow it, and Remove only on one's own", async () => {
    await open(false);
    expect(document.querySelector('[data-testid="add-server-form"]')).toBeNull();
    expect(allByTestId(rowOf("mail"), "server-remove")).toHaveLength(0);
    expect(byTestId(rowOf("mine.example.com"), "server-remove").getAttribute("aria-label")).toBe(
      "Remove mine.example.com",
    );
  });

  it("adds a server by its address, with the allowed addresses as a hint", async () => {
    await open(true);
    await waitUntil(
      () => document.querySelector('[data-testid="add-server-form"]') !== null,
      "the form shows",
    );
    expect(byTestId(document, "add-server-hint").textContent).toBe(
      "Allowed addresses: https://*.example.com/*",
    );
    const added = serverStatus("new.example.com", { connector: true });
    socket.respond("connector:add", () => {
      servers = [...servers, added];
      return { ok: true, value: added };
    });
    await typeInto(
      byTestId<HTMLInputElement>(document, "add-server-url"),
      " https://new.example.com/mcp ",
    );
    await click(byTestId(document, "add-server-submit"));
    await waitUntil(() => socket.sent("connector:add").length === 1, "add is sent");
    expect(socket.sent("connector:add")).toEqual([{ url: "https://new.example.com/mcp" }]);
    await waitUntil(
      () => document.querySelector('[data-testid="add-server-message"]') !== null,
      "the note shows",
    );
    expect(byTestId(document, "add-server-message").textContent).toBe(
      "Added new.example.com; choose Connect to sign in to it.",
    );
    await waitUntil(
      () => allByTestId(document, "server-row").length === 3,
      "the new server is listed",
    );
    expect(byTestId<HTMLInputElement>(document, "add-server-url").value).toBe("");
  });

  it("shows the host's sentence when it refuses the address", async () => {
    await open(true);
    await waitUntil(
      () => document.querySelector('[data-testid="add-server-form"]') !== null,
      "the form shows",
    );
    const sentence =
      'The address "https://10.0.0.1/mcp" is not one this host\'s operator allows; it must match https://*.example.com/*.';
    socket.respond("connector:add", () => ({ ok: false, error: wireError("refused", sentence) }));
    await typeInto(byTestId<HTMLInputElement>(document, "add-server-url"), "https://10.0.0.1/mcp");
    await click(byTestId(document, "add-server-submit"));
    await waitUntil(
      () => document.querySelector('[data-testid="add-server-message"]') !== null,
      "the sentence shows",
    );
    const message = byTestId(document, "add-server-message");
    expect(message.textContent).toBe(sentence);
    expect(message.getAttribute("role")).toBe("alert");
    expect(byTestId<HTMLInputElement>(document, "add-server-url").value).toBe(
      "https://10.0.0.1/mcp",
    );
  });

  it("asks before it removes a server, and shows a refusal", async () => {
    await open(true);
    socket.respond("connector:remove", () => ({
      ok: false,
      error: wireError("unavailable", "The server could not be removed; try again."),
    }));
    await click(byTestId(rowOf("mine.example.com"), "server-remove"));
    expect(socket.sent("connector:remove")).toEqual([]);
    expect(byTestId(rowOf("mine.example.com"), "server-remove-question").textContent).toBe(
      removeQuestion("mine.example.com"),
    );
    expect(removeQuestion("mine.example.com")).toBe(
      "Remove mine.example.com? Your sign-in to it is revoked and its tools leave your chats.",
    );
    await click(byTestId(rowOf("mine.example.com"), "server-remove-keep"));
    expect(socket.sent("connector:remove")).toEqual([]);
    await click(byTestId(rowOf("mine.example.com"), "server-remove"));
    await click(byTestId(rowOf("mine.example.com"), "server-remove-confirm"));
    await waitUntil(() => socket.sent("connector:remove").length === 1, "remove is sent");
    expect(socket.sent("connector:remove")).toEqual([{ name: "mine.example.com" }]);
    await waitUntil(
      () => rowOf("mine.example.com").querySelector('[data-testid="server-message"]') !== null,
      "the refusal shows",
    );
    expect(byTestId(rowOf("mine.example.com"), "server-message").textContent).toBe(
      "The server could not be removed; try again.",
    );

    socket.respond("connector:remove", () => {
      servers = servers.filter((server) => server.name !== "mine.example.com");
      return { ok: true, value: { removed: true } };
    });
    await click(byTestId(rowOf("mine.example.com"), "server-remove"));
    await click(byTestId(rowOf("mine.example.com"), "server-remove-confirm"));
    await waitUntil(
      () => allByTestId(document, "server-row").length === 1,
      "the server leaves the list",
    );
  });
});
