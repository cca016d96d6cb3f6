// @vitest-environment jsdom
import { type ChatPrompt, type ChatResource, wireError } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetStores } from "../../test-support/reset-stores";
import { FakeSocket } from "../../test-support/fake-socket";
import { chatMessage } from "../../test-support/records";
import {
  allByTestId,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { Composer } from "./composer";
import { MessageView } from "./message-view";
import { slashQuery } from "./use-slash-prompts";

const prompts: ChatPrompt[] = [
  {
    source: "library",
    name: "summarize",
    title: "Summarize",
    arguments: [
      { name: "topic", required: true, description: "What to summarize" },
      { name: "style" },
    ],
  },
  { source: "library", name: "standup", arguments: [] },
];

const resources: ChatResource[] = Array.from({ length: 6 }, (_, index) => ({
  source: "library",
  uri: `notes://${index}`,
  name: `note-${index}`,
}));

describe("slashQuery", () => {
  it("reads the word after a leading slash, and nothing once a space or line follows", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/sum")).toBe("sum");
    expect(slashQuery("/call greet {}")).toBeNull();
    expect(slashQuery("hello /sum")).toBeNull();
  });
});

describe("the composer's prompts and attachments", () => {
  let socket: FakeSocket;
  let view: Rendered;

  async function mount() {
    view = await render(<Composer chatId="chat" chatTitle="Chat" running={false} />, socket);
    return byTestId<HTMLTextAreaElement>(view.container, "composer-input");
  }

  beforeEach(() => {
    resetStores();
    socket = new FakeSocket();
    socket.respond("prompts:list", () => ({ ok: true, value: prompts }));
    socket.respond("resources:list", () => ({ ok: true, value: resources }));
    socket.respond("message:send", () => ({
      ok: true,
      value: { messageId: "stored-1", duplicate: false },
    }));
  });
  afterEach(async () => view.unmount());

  it("offers the chat's prompts after a slash, filtered, with arrows, Enter and Escape", async () => {
    const input = await mount();
    await typeInto(input, "/");
    await waitUntil(() => allByTestId(view.container, "prompt-option").length === 2, "listed");
    expect(socket.sent("prompts:list")).toEqual([{ chatId: "chat" }]);
    const options = () => allByTestId(view.container, "prompt-option");
    expect(options()[0]!.getAttribute("aria-selected")).toBe("true");
    await pressKey(input, "ArrowDown");
    expect(options()[1]!.getAttribute("aria-selected")).toBe("true");
    await pressKey(input, "ArrowDown");
    expect(options()[0]!.getAttribute("aria-selected")).toBe("true");

    await typeInto(input, "/stand");
    expect(options().map((option) => option.textContent)).toEqual(["/standup (library)"]);
    const escape = await pressKey(input, "Escape");
    expect(escape.defaultPrevented).toBe(true);
    expect(options()).toHaveLength(0);
    // Typing on in an open menu asks nothing more; opening it again asks again (new prompts show).
    expect(socket.sent("prompts:list")).toHaveLength(1);
    await typeInto(input, "/s");
    expect(options()).toHaveLength(2);
    await waitUntil(() => socket.sent("prompts:list").length === 2, "asked again");
  });

  it("asks a prompt's arguments in a form, then fills the box with its text to send", async () => {
    socket.respond("prompt:get", (payload) => ({
      ok: true,
      value: { text: `Summarize ${payload.arguments["topic"]}.` },
    }));
    const input = await mount();
    await typeInto(input, "/sum");
    await waitUntil(() => allByTestId(view.container, "prompt-option").length === 1, "filtered");
    const enter = await pressKey(input, "Enter");
    expect(enter.defaultPrevented).toBe(true);
    expect(socket.sent("message:send")).toEqual([]);
    const form = byTestId(view.container, "prompt-form");
    expect(form.textContent).toContain("topic (required)");
    expect(form.textContent).toContain("What to summarize");
    const submit = byTestId<HTMLButtonElement>(view.container, "prompt-form-submit");
    expect(submit.disabled).toBe(true);
    await typeInto(byTestId<HTMLInputElement>(view.container, "prompt-argument-topic"), "MCP");
    await click(submit);
    await waitUntil(() => input.value === "Summarize MCP.", "the box is filled");
    expect(socket.sent("prompt:get")).toEqual([
      { chatId: "chat", source: "library", name: "summarize", arguments: { topic: "MCP" } },
    ]);
    expect(view.container.querySelector('[data-testid="prompt-form"]')).toBeNull();
    expect(socket.sent("message:send")).toEqual([]);
  });

  it("says why a prompt could not be used, in the form", async () => {
    socket.respond("prompt:get", () => ({
      ok: false,
      error: wireError(
        "bad_request",
        "The prompt Summarize needs a value for topic; fill it in and try again.",
      ),
    }));
    const input = await mount();
    await typeInto(input, "/summarize");
    await waitUntil(() => allByTestId(view.container, "prompt-option").length === 1, "listed");
    await pressKey(input, "Enter");
    await typeInto(byTestId<HTMLInputElement>(view.container, "prompt-argument-topic"), " x ");
    await click(byTestId(view.container, "prompt-form-submit"));
    await waitUntil(
      () => view.container.querySelector('[data-testid="prompt-form-error"]') !== null,
      "the error shows",
    );
    expect(byTestId(view.container, "prompt-form-error").textContent).toBe(
      "The prompt could not be used: The prompt Summarize needs a value for topic; fill it in and try again.",
    );
  });

  it("attaches up to five resources as removable chips and sends them with the message", async () => {
    const input = await mount();
    const attach = byTestId(view.container, "attach-button");
    for (let index = 0; index < 5; index++) {
      await click(attach);
      await waitUntil(() => allByTestId(view.container, "attach-option").length === 6, "listed");
      await click(allByTestId(view.container, "attach-option")[index]!);
    }
    // Listed again at each opening, so a server's new resources show.
    expect(socket.sent("resources:list")).toHaveLength(5);
    expect(allByTestId(view.container, "attachment-chip")).toHaveLength(5);
    await click(attach);
    const sixth = allByTestId<HTMLButtonElement>(view.container, "attach-option")[5]!;
    expect(sixth.disabled).toBe(true);
    expect(byTestId(view.container, "attach-full").textContent).toContain("at most 5");
    await click(attach);

    await click(view.container.querySelector<HTMLButtonElement>('[aria-label="Remove note-0"]')!);
    expect(allByTestId(view.container, "attachment-chip").map((chip) => chip.textContent)).toEqual([
      "note-1×",
      "note-2×",
      "note-3×",
      "note-4×",
    ]);
    await typeInto(input, "Read these.");
    await pressKey(input, "Enter");
    await waitUntil(() => input.value === "", "sent");
    expect(socket.sent("message:send")[0]).toMatchObject({
      text: "Read these.",
      attachments: [1, 2, 3, 4].map((index) => ({ source: "library", uri: `notes://${index}` })),
    });
    expect(allByTestId(view.container, "attachment-chip")).toHaveLength(0);
  });

  it("closes the attach menu on Escape and on a click elsewhere", async () => {
    await mount();
    const attach = byTestId(view.container, "attach-button");
    await click(attach);
    await waitUntil(() => allByTestId(view.container, "attach-option").length === 6, "listed");
    await pressKey(allByTestId(view.container, "attach-option")[0]!, "Escape");
    expect(view.container.querySelector('[data-testid="attach-menu"]')).toBeNull();
    await click(attach);
    await waitUntil(() => allByTestId(view.container, "attach-option").length === 6, "listed");
    document.body.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
    await waitUntil(
      () => view.container.querySelector('[data-testid="attach-menu"]') === null,
      "closed by a click elsewhere",
    );
  });

  it("keeps Send off while a prompt's form is open", async () => {
    const input = await mount();
    await typeInto(input, "/sum");
    await waitUntil(() => allByTestId(view.container, "prompt-option").length === 1, "filtered");
    await pressKey(input, "Enter");
    expect(byTestId(view.container, "prompt-form")).toBeTruthy();
    const sendButton = view.container.querySelector<HTMLButtonElement>('button[type="submit"]');
    expect(sendButton?.disabled).toBe(true);
    await pressKey(input, "Enter");
    expect(socket.sent("message:send")).toEqual([]);
  });

  it("shows a person's sent attachments by name or URI", async () => {
    const message = chatMessage("m-1", {
      role: "user",
      parts: [
        { type: "text", text: "Look." },
        { type: "resource", source: "library", uri: "notes://readme", name: "readme", text: "x" },
        {
          type: "resource",
          source: "library",
          uri: "notes://logo.png",
          mimeType: "image/png",
          blob: "iVBO",
        },
      ],
    });
    view = await render(<MessageView message={message} />, socket);
    expect(
      allByTestId(view.container, "message-attachment").map((item) => item.textContent),
    ).toEqual(["Attached: readme (library)", "Attached: notes://logo.png (library)"]);
  });
});
