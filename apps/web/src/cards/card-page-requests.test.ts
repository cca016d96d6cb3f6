// @vitest-environment jsdom
// What the page sends the server for a view's `ui/message` and `ui/update-model-context`, with
// real pieces (see card-controller-lifecycle.test.ts): the generation the card attached with goes
// with both, so the server can tell an earlier load of the page from the newest; and an app message the server refuses (a reply still running, too many messages) reaches
// the view as an error and the card's log with the server's reason.
import { describe, expect, it } from "vitest";
import { cardViewAccess } from "../state/host-store";
import { attachReply, recordingView, setUpControllerFixture } from "./testing/controller-fixture";

const fixture = setUpControllerFixture();

describe("page requests: the page load's generation", () => {
  it("sends the generation of its attach with every message and report", async () => {
    const { view } = await fixture.openCard(recordingView(), attachReply({ generation: 7 }));
    fixture.server.answer("card:post-message", () => ({ action: "compose" }));
    fixture.server.answer("card:update-context", () => ({ reportedAt: 1 }));
    await view.app.sendMessage({ role: "user", content: [{ type: "text", text: "Compare" }] });
    await view.app.updateModelContext({ content: [{ type: "text", text: "2 selected" }] });
    expect((await fixture.server.next("card:post-message", 0)).payload).toEqual({
      instanceId: "card-1",
      generation: 7,
      role: "user",
      content: [{ type: "text", text: "Compare" }],
    });
    expect((await fixture.server.next("card:update-context", 0)).payload).toEqual({
      instanceId: "card-1",
      generation: 7,
      content: [{ type: "text", text: "2 selected" }],
    });
  });

  it("sends none when the server named none", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:post-message", () => ({ action: "compose" }));
    await view.app.sendMessage({ role: "user", content: [{ type: "text", text: "Hi" }] });
    const { payload } = await fixture.server.next("card:post-message", 0);
    expect(payload).not.toHaveProperty("generation");
  });
});

describe("page requests: refused app messages", () => {
  it("tells the view and logs the server's reason when a message is refused", async () => {
    const { view } = await fixture.openCard();
    fixture.server.answer("card:post-message", () => ({
      code: "busy",
      message:
        "The chat is still answering this app's last message; send the next one when it is done.",
      retryable: true,
    }));
    expect(
      await view.app.sendMessage({ role: "user", content: [{ type: "text", text: "Again" }] }),
    ).toEqual({ isError: true });
    expect(cardViewAccess.get("card-1")?.log.at(-1)).toMatchObject({
      origin: "host",
      level: "warning",
      data: "The app's message was refused: The chat is still answering this app's last message; send the next one when it is done.",
    });
  });
});
