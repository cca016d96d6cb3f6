// @vitest-environment jsdom
// What a card's view asks the host, its display modes, size and theme, with real pieces
// (see card-controller-lifecycle.test.ts).
import { describe, expect, it, vi } from "vitest";
import { cardViewAccess } from "../state/host-store";
import { descriptor, recordingView, setUpControllerFixture } from "./testing/controller-fixture";

const fixture = setUpControllerFixture();

describe("CardController: what the view asks", () => {
  it("passes tool calls to the server and answers refusals with the server's JSON-RPC code", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:call-tool", (payload) =>
      payload.name === "get-time"
        ? { content: [{ type: "text", text: "12:01" }] }
        : { code: "refused", message: "Not from this card.", retryable: false, rpcCode: -32602 },
    );
    expect(
      await view.app.callServerTool({ name: "get-time", arguments: { zone: "CET" } }),
    ).toMatchObject({
      content: [{ type: "text", text: "12:01" }],
    });
    expect((await fixture.server.next("card:call-tool", 0)).payload).toEqual({
      instanceId: "card-1",
      name: "get-time",
      arguments: { zone: "CET" },
    });
    await expect(view.app.callServerTool({ name: "delete-everything" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Not from this card."),
    });
  });

  it("reports model context and shows when", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:update-context", () => ({ reportedAt: 1_700_000_000_000 }));
    await view.app.updateModelContext({ content: [{ type: "text", text: "3 items selected" }] });
    expect((await fixture.server.next("card:update-context", 0)).payload).toEqual({
      instanceId: "card-1",
      content: [{ type: "text", text: "3 items selected" }],
    });
    expect(cardViewAccess.get("card-1")?.reportedAt).toBe(1_700_000_000_000);
  });

  it("posts messages to the server, and tells the view when they are refused", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:post-message", () => ({ action: "compose" }));
    expect(
      await view.app.sendMessage({ role: "user", content: [{ type: "text", text: "Compare" }] }),
    ).toEqual({});
    expect((await fixture.server.next("card:post-message", 0)).payload).toEqual({
      instanceId: "card-1",
      role: "user",
      content: [{ type: "text", text: "Compare" }],
    });
    fixture.server.answer("card:post-message", () => ({
      code: "refused",
      message: "No messages.",
      retryable: false,
    }));
    expect(
      await view.app.sendMessage({ role: "user", content: [{ type: "text", text: "Again" }] }),
    ).toEqual({
      isError: true,
    });
  });

  it("opens only http(s) links, with no opener, and logs the refusals", async () => {
    const { view } = await fixture.openCard();
    expect(await view.app.openLink({ url: "https://example.com/docs" })).toEqual({});
    expect(fixture.pageActions.openTab).toHaveBeenCalledExactlyOnceWith("https://example.com/docs");
    expect(await view.app.openLink({ url: "javascript:alert(document.cookie)" })).toEqual({
      isError: true,
    });
    expect(fixture.pageActions.openTab).toHaveBeenCalledTimes(1);
    expect(cardViewAccess.get("card-1")?.log.at(-1)).toMatchObject({
      origin: "host",
      level: "warning",
      data: expect.stringMatching(/javascript:/),
    });
  });

  it("asks before saving a download, and saves only what the person accepted", async () => {
    const { view } = await fixture.openCard();
    const request = view.app.downloadFile({
      contents: [
        {
          type: "resource",
          resource: { uri: "file:///x/../report.csv", text: "a,b", mimeType: "text/csv" },
        },
      ],
    });
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.download).not.toBeNull(), {
      timeout: 5_000,
    });
    const pending = cardViewAccess.get("card-1")?.download;
    expect(pending?.items.map((item) => item.name)).toEqual(["report.csv"]);
    pending?.answer(true);
    expect(await request).toEqual({});
    expect(fixture.pageActions.saveFile).toHaveBeenCalledExactlyOnceWith(
      "report.csv",
      expect.any(Blob),
    );

    const declined = view.app.downloadFile({
      contents: [{ type: "resource", resource: { uri: "file:///b.txt", text: "b" } }],
    });
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.download).not.toBeNull(), {
      timeout: 5_000,
    });
    cardViewAccess.get("card-1")?.download?.answer(false);
    expect(await declined).toEqual({ isError: true });
    expect(fixture.pageActions.saveFile).toHaveBeenCalledTimes(1);
  });

  it("keeps the view's log and sends it to the server", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:log", () => ({}));
    await view.app.sendLog({ level: "warning", logger: "clock", data: { drift: 3 } });
    expect((await fixture.server.next("card:log", 0)).payload).toEqual({
      instanceId: "card-1",
      level: "warning",
      logger: "clock",
      data: { drift: 3 },
    });
    expect(cardViewAccess.get("card-1")?.log).toContainEqual(
      expect.objectContaining({
        origin: "view",
        level: "warning",
        logger: "clock",
        data: { drift: 3 },
      }),
    );
  });
});

describe("CardController: display modes, size and theme", () => {
  it("honours declared modes, answers with the mode in effect and tells the view", async () => {
    const { controller, view } = await fixture.openCard(recordingView(["inline", "fullscreen"]));
    expect(await view.app.requestDisplayMode({ mode: "pip" })).toEqual({ mode: "inline" });
    // Full screen from the view waits for the person's yes: a view must not cover
    // the host's page (and its dialogs) on its own.
    const asked = view.app.requestDisplayMode({ mode: "fullscreen" });
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.displayRequest).not.toBeNull());
    expect(cardViewAccess.get("card-1")?.displayMode).toBe("inline");
    cardViewAccess.get("card-1")?.displayRequest?.answer(true);
    expect(await asked).toEqual({ mode: "fullscreen" });
    expect(cardViewAccess.get("card-1")?.displayMode).toBe("fullscreen");
    expect(cardViewAccess.get("card-1")?.displayRequest).toBeNull();
    expect(view.contextChanges).toContainEqual(
      expect.objectContaining({ displayMode: "fullscreen" }),
    );
    // The person cannot pick a mode the view did not declare, but can always come back inline.
    expect(controller.setDisplayMode("pip")).toBe("fullscreen");
    expect(controller.setDisplayMode("inline")).toBe("inline");
    await fixture.roundTrip();
    expect(view.app.getHostContext()?.displayMode).toBe("inline");
  });

  it("never puts a view in full screen without the person: a no holds for the card", async () => {
    const { view } = await fixture.openCard(recordingView(["inline", "fullscreen"]));
    const asked = view.app.requestDisplayMode({ mode: "fullscreen" });
    await vi.waitFor(() => expect(cardViewAccess.get("card-1")?.displayRequest).not.toBeNull());
    // A second request while the question is open gets the mode in effect, and no second question.
    expect(await view.app.requestDisplayMode({ mode: "fullscreen" })).toEqual({ mode: "inline" });
    cardViewAccess.get("card-1")?.displayRequest?.answer(false);
    expect(await asked).toEqual({ mode: "inline" });
    // After a no, the view is not asked about again: its next request is refused at once.
    expect(await view.app.requestDisplayMode({ mode: "fullscreen" })).toEqual({ mode: "inline" });
    expect(cardViewAccess.get("card-1")).toMatchObject({
      displayMode: "inline",
      displayRequest: null,
    });
  });

  it("keeps one card in full screen at a time, so its host bar is never covered", async () => {
    const { controller } = await fixture.openCard();
    // A second card that never attaches (saved closed): enough to take full screen.
    const other = fixture.startCard({ card: descriptor({ instanceId: "card-2", closed: true }) });
    expect(controller.setDisplayMode("fullscreen")).toBe("fullscreen");
    expect(other.setDisplayMode("fullscreen")).toBe("fullscreen");
    expect(cardViewAccess.get("card-1")?.displayMode).toBe("inline");
    expect(cardViewAccess.get("card-2")?.displayMode).toBe("fullscreen");
  });

  it("follows the view's height inline only, ignoring small shrinks", async () => {
    const { controller, view } = await fixture.openCard();
    const heightAfter = async (height: number) => {
      await view.app.sendSizeChanged({ height });
      await fixture.roundTrip();
      return cardViewAccess.get("card-1")?.frameHeight;
    };
    expect(await heightAfter(480)).toBe(480);
    expect(await heightAfter(477)).toBe(480);
    expect(await heightAfter(300)).toBe(300);
    controller.setDisplayMode("fullscreen");
    expect(await heightAfter(900)).toBe(300);
    controller.setDisplayMode("inline");
    expect(await heightAfter(350)).toBe(350);
  });

  it("tells the view about a theme change", async () => {
    const { controller, view } = await fixture.openCard();
    controller.setTheme("dark");
    await vi.waitFor(() => expect(view.app.getHostContext()?.theme).toBe("dark"), {
      timeout: 5_000,
    });
    expect(view.app.getHostContext()?.styles?.variables?.["--color-background-primary"]).toBe(
      "#1e1f22",
    );
  });
});
