// @vitest-environment jsdom
import { wireError, type ElicitationRequest } from "@mcp-chat-host/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bindServerEvents } from "../../socket/bind-server-events";
import { useHostStore } from "../../state/host-store";
import { FakeSocket } from "../../test-support/fake-socket";
import {
  act0,
  byTestId,
  click,
  pressKey,
  type Rendered,
  render,
  tabTo,
  typeInto,
  waitUntil,
} from "../../test-support/render";
import { resetStores } from "../../test-support/reset-stores";
import { ElicitationDialog } from "./elicitation-dialog";

const store = useHostStore.getState;

function formRequest(id: string, overrides: Partial<ElicitationRequest> = {}): ElicitationRequest {
  return {
    elicitationId: id,
    server: "travel",
    mode: "form",
    message: "Where to? <b>now</b>",
    requestedSchema: {
      type: "object",
      properties: {
        city: { type: "string", title: "City", description: "Where you land." },
        nights: { type: "integer", minimum: 1 },
        seat: { type: "string", enum: ["aisle", "window"], enumNames: ["Aisle", "Window"] },
        insured: { type: "boolean", title: "Travel insurance" },
      },
      required: ["city", "nights"],
    },
    expiresAt: Date.now() + 60_000,
    ...overrides,
  };
}

function urlRequest(id: string, url: string): ElicitationRequest {
  return {
    elicitationId: id,
    server: "travel",
    mode: "url",
    message: "Sign in to pay.",
    url,
    expiresAt: Date.now() + 60_000,
  };
}

describe("elicitations store", () => {
  beforeEach(() => resetStores());

  it("queues questions once each and settles any of them, with its error", () => {
    store().enqueueElicitation(formRequest("q1"));
    store().enqueueElicitation(formRequest("q2"));
    store().enqueueElicitation(formRequest("q1"));
    expect(store().elicitationQueue.map((request) => request.elicitationId)).toEqual(["q1", "q2"]);
    store().setElicitationError("Wrong.");
    store().settleElicitation("q2");
    expect(store().elicitationError).toBe("Wrong.");
    store().settleElicitation("q1");
    expect(store().elicitationQueue).toEqual([]);
    expect(store().elicitationError).toBeNull();
  });
});

describe("ElicitationDialog", () => {
  let socket: FakeSocket;
  let view: Rendered;
  let unbind: () => void;

  beforeEach(async () => {
    resetStores();
    socket = new FakeSocket().respond("elicitation:answer", () => ({ ok: true, value: {} }));
    unbind = bindServerEvents(socket);
    view = await render(<ElicitationDialog arming={{ delayMs: 0 }} />, socket);
  });
  afterEach(async () => {
    unbind();
    await view.unmount();
  });

  const dialog = () =>
    view.container.querySelector<HTMLElement>('[data-testid="elicitation-dialog"]');
  const input = <T extends HTMLElement = HTMLInputElement>(name: string) =>
    byTestId<T>(view.container, `elicitation-input-${name}`);
  const ask = (request: ElicitationRequest) =>
    act0(() => socket.serverEmit("elicitation:request", request));

  it("names the server, shows the message as plain text, and takes the focus itself", async () => {
    await ask(formRequest("q1"));
    const element = dialog();
    expect(element?.getAttribute("role")).toBe("alertdialog");
    expect(element?.querySelector("h2")?.textContent).toBe("travel asks");
    const message = byTestId(view.container, "elicitation-message");
    expect(message.textContent).toBe("Where to? <b>now</b>");
    expect(message.querySelector("b")).toBeNull();
    // The focus is on the dialog, not on a button that would answer.
    expect(document.activeElement).toBe(element);
  });

  it("renders the schema as a form: labels, descriptions, required marks and inputs by kind", async () => {
    await ask(formRequest("q1"));
    const city = input("city");
    expect(city.type).toBe("text");
    expect(city.getAttribute("aria-required")).toBe("true");
    expect(view.container.querySelector(`label[for="${city.id}"]`)?.textContent).toBe("City *");
    expect(dialog()?.textContent).toContain("Where you land.");
    const nights = input("nights");
    expect(nights.type).toBe("number");
    expect(view.container.querySelector(`label[for="${nights.id}"]`)?.textContent).toBe("nights *");
    const seat = input<HTMLSelectElement>("seat");
    expect(seat.tagName).toBe("SELECT");
    expect([...seat.options].map((option) => option.textContent)).toEqual([
      "Choose one",
      "Aisle",
      "Window",
    ]);
    const insured = input("insured");
    expect(insured.type).toBe("checkbox");
    expect(view.container.querySelector(`label[for="${insured.id}"]`)?.textContent).toBe(
      "Travel insurance",
    );
  });

  it("checks the form before sending, with a sentence per wrong field", async () => {
    await ask(formRequest("q1"));
    await typeInto(input("nights"), "0");
    await click(byTestId(view.container, "elicitation-submit"));
    expect(socket.sent("elicitation:answer")).toEqual([]);
    expect(byTestId(view.container, "elicitation-problem-city").textContent).toBe(
      'Fill in "City"; it is required.',
    );
    expect(byTestId(view.container, "elicitation-problem-nights").textContent).toBe(
      '"nights" must be at least 1.',
    );
    expect(input("nights").getAttribute("aria-invalid")).toBe("true");
    expect(dialog()).not.toBeNull();
  });

  it("submits the values as the schema's types, and closes", async () => {
    await ask(formRequest("q1"));
    await typeInto(input("city"), "Lisbon");
    await typeInto(input("nights"), "3");
    await act0(() => {
      const seat = input<HTMLSelectElement>("seat");
      seat.value = "window";
      seat.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await click(input("insured"));
    await click(byTestId(view.container, "elicitation-submit"));
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("elicitation:answer")).toEqual([
      {
        elicitationId: "q1",
        action: "accept",
        content: { city: "Lisbon", nights: 3, seat: "window", insured: true },
      },
    ]);
  });

  it.each([
    ["elicitation-decline", "decline"],
    ["elicitation-cancel", "cancel"],
  ] as const)("%s answers %s without values", async (testId, action) => {
    await ask(formRequest("q1"));
    await click(byTestId(view.container, testId));
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("elicitation:answer")).toEqual([{ elicitationId: "q1", action }]);
  });

  it("cancels on Escape", async () => {
    await ask(formRequest("q1"));
    await pressKey(dialog()!, "Escape");
    await waitUntil(() => dialog() === null, "the dialog closes");
    expect(socket.sent("elicitation:answer")).toEqual([{ elicitationId: "q1", action: "cancel" }]);
  });

  it("keeps the question and shows the host's sentence when it refuses the answer", async () => {
    const sentence = 'Your answer was not sent: "nights" must be a whole number.';
    socket.respond("elicitation:answer", () => ({
      ok: false,
      error: wireError("bad_request", sentence),
    }));
    await ask(formRequest("q1"));
    await typeInto(input("city"), "Lisbon");
    await typeInto(input("nights"), "2");
    await click(byTestId(view.container, "elicitation-submit"));
    await waitUntil(
      () => view.container.querySelector('[data-testid="elicitation-error"]') !== null,
      "the refusal shows",
    );
    expect(byTestId(view.container, "elicitation-error").textContent).toBe(sentence);
    expect(dialog()).not.toBeNull();
  });

  it("closes when the question is settled elsewhere, and shows the next one", async () => {
    await ask(formRequest("q1"));
    await ask(formRequest("q2", { server: "weather" }));
    expect(byTestId(view.container, "elicitation-counter").textContent).toBe("1 of 2");
    await act0(() =>
      socket.serverEmit("elicitation:settled", { elicitationId: "q1", outcome: "timed-out" }),
    );
    expect(dialog()?.getAttribute("data-elicitation-id")).toBe("q2");
    expect(byTestId(view.container, "elicitation-server").textContent).toBe("weather");
    await act0(() =>
      socket.serverEmit("elicitation:settled", { elicitationId: "q2", outcome: "withdrawn" }),
    );
    expect(dialog()).toBeNull();
  });

  describe("a page to open", () => {
    it("shows the address in full and its host, and opens it only on Open, without an opener", async () => {
      const opened = vi.spyOn(window, "open").mockReturnValue(null);
      const url = "https://pay.example.com/checkout?order=7";
      await ask(urlRequest("q1", url));
      expect(byTestId(view.container, "elicitation-url").textContent).toBe(url);
      expect(byTestId(view.container, "elicitation-url-host").textContent).toBe("pay.example.com");
      expect(opened).not.toHaveBeenCalled();
      await click(byTestId(view.container, "elicitation-open"));
      expect(opened).toHaveBeenCalledWith(url, "_blank", "noopener,noreferrer");
      await waitUntil(() => dialog() === null, "the dialog closes");
      expect(socket.sent("elicitation:answer")).toEqual([
        { elicitationId: "q1", action: "accept" },
      ]);
      opened.mockRestore();
    });

    it("declines without opening anything", async () => {
      const opened = vi.spyOn(window, "open").mockReturnValue(null);
      await ask(urlRequest("q1", "https://pay.example.com/"));
      await click(byTestId(view.container, "elicitation-decline"));
      await waitUntil(() => dialog() === null, "the dialog closes");
      expect(opened).not.toHaveBeenCalled();
      expect(socket.sent("elicitation:answer")).toEqual([
        { elicitationId: "q1", action: "decline" },
      ]);
      opened.mockRestore();
    });

    it("never opens an address that is not http or https", async () => {
      const opened = vi.spyOn(window, "open").mockReturnValue(null);
      await ask(urlRequest("q1", "javascript:alert(1)"));
      const open = byTestId<HTMLButtonElement>(view.container, "elicitation-open");
      expect(open.disabled).toBe(true);
      await click(open);
      expect(opened).not.toHaveBeenCalled();
      expect(byTestId(view.container, "elicitation-url-refused").textContent).toBe(
        "This is not a web address (http or https), so it cannot be opened; decline it.",
      );
      opened.mockRestore();
    });

    it("never opens a page of this chat host itself", async () => {
      const opened = vi.spyOn(window, "open").mockReturnValue(null);
      await ask(urlRequest("q1", `${window.location.origin}/?token=someone-else`));
      const open = byTestId<HTMLButtonElement>(view.container, "elicitation-open");
      expect(open.disabled).toBe(true);
      await click(open);
      expect(opened).not.toHaveBeenCalled();
      expect(byTestId(view.container, "elicitation-url-refused").textContent).toBe(
        "This address is on this chat host itself, so it is not opened from here; decline it.",
      );
      opened.mockRestore();
    });
  });
});

describe("ElicitationDialog's arming", () => {
  it("ignores Submit pressed before the dialog could be read, and Enter in a field; takes Enter on Submit the person tabbed to", async () => {
    resetStores();
    let clock = 1_000;
    const socket = new FakeSocket().respond("elicitation:answer", () => ({ ok: true, value: {} }));
    const view = await render(
      <ElicitationDialog arming={{ now: () => clock, delayMs: 600 }} />,
      socket,
    );
    await act0(() =>
      store().enqueueElicitation(
        formRequest("q1", {
          requestedSchema: { type: "object", properties: { note: { type: "string" } } },
        }),
      ),
    );
    const submit = byTestId(view.container, "elicitation-submit");
    expect(submit.getAttribute("aria-disabled")).toBe("true");
    clock = 1_200;
    await pressKey(submit, "Enter");
    await click(submit);
    expect(socket.sent("elicitation:answer")).toEqual([]);
    // Enter in the field submits the form, but that press was not on Submit: nothing.
    clock = 1_800;
    const field = view.container.querySelector<HTMLInputElement>("input");
    if (field === null) throw new Error("no field");
    await tabTo(field);
    await pressKey(field, "Enter");
    await click(submit);
    expect(socket.sent("elicitation:answer")).toEqual([]);
    expect(byTestId(view.container, "consent-hint").getAttribute("data-refusal")).toBe(
      "not-chosen",
    );
    // The person tabs past Decline and Cancel to Submit, then presses Enter: it answers.
    await tabTo(byTestId(view.container, "elicitation-decline"));
    await tabTo(byTestId(view.container, "elicitation-cancel"));
    await tabTo(submit);
    clock = 2_400;
    await pressKey(submit, "Enter");
    await click(submit);
    await waitUntil(() => socket.sent("elicitation:answer").length === 1, "the answer is sent");
    expect(socket.sent("elicitation:answer")).toEqual([
      { elicitationId: "q1", action: "accept", content: {} },
    ]);
    await view.unmount();
  });
});
