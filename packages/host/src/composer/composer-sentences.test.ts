import { describe, expect, it } from "vitest";
import { noPromptsError } from "../sources/request-error";
import {
  TOO_LARGE_MESSAGE,
  notTheChatsMessage,
  readFailedMessage,
  viewNotAttachableMessage,
} from "./attached-resources";
import {
  missingArgumentsMessage,
  unknownPromptMessage,
  unknownSourceMessage,
} from "./composer-offers";

describe("the composer's sentences", () => {
  it("names the missing arguments of a prompt, one or several", () => {
    expect(missingArgumentsMessage("Summarize", ["topic"])).toBe(
      "The prompt Summarize needs a value for topic; fill it in and try again.",
    );
    expect(missingArgumentsMessage("Summarize", ["topic", "style", "length"])).toBe(
      "The prompt Summarize needs a value for topic, style and length; fill them in and try again.",
    );
  });

  it("says which server or prompt is unknown", () => {
    expect(unknownSourceMessage("library")).toBe(
      "This chat does not use a server named library; choose a prompt from the list.",
    );
    expect(unknownPromptMessage("library", "translate")).toBe(
      "library offers no prompt named translate; choose one from the list.",
    );
    expect(noPromptsError("clock").message).toBe("clock offers no prompts; choose another one.");
    expect(noPromptsError("clock").code).toBe("unavailable");
  });

  it("says why an attachment was refused", () => {
    const attachment = { source: "library", uri: "notes://readme" };
    expect(notTheChatsMessage(attachment)).toBe(
      "notes://readme belongs to library, which this chat does not use; attach resources of this chat's servers only.",
    );
    expect(readFailedMessage(attachment)).toBe(
      "Couldn't read notes://readme from library; remove it or try again.",
    );
    expect(viewNotAttachableMessage({ source: "greeter", uri: "ui://greeter" })).toBe(
      "ui://greeter is an app's page, not something to attach; remove it.",
    );
    expect(TOO_LARGE_MESSAGE).toBe(
      "The attached resources are too large together (at most 100,000 characters); attach fewer or smaller ones.",
    );
  });
});
