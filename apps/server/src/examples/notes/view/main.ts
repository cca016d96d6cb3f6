/// <reference lib="dom" />
// The Notes page. The person writes; every change is kept as a local draft and reported to the
// host as model context (`ui/update-model-context`), so the assistant knows what the notes say
// without the person pasting them. "Save" calls the app-only `save-notes` tool; "Ask the
// assistant about this" posts a message as the person (`ui/message`).
import { App } from "@modelcontextprotocol/ext-apps";
import { byTestId } from "../../view-kit/dom";
import { applyHostContext } from "../../view-kit/host-context";
import { readDraft, writeDraft } from "../../view-kit/local-draft";
import { requestErrorMessage, resultText } from "../../view-kit/messages";
import { StatusLine } from "../../view-kit/status-line";
import { askText, countWords, notesReport, notesStorageKey, wordPhrase } from "../notes-report";

const textArea = byTestId("notes-text", HTMLTextAreaElement);
const saveButton = byTestId("notes-save", HTMLButtonElement);
const askButton = byTestId("notes-ask", HTMLButtonElement);
const wordCount = byTestId("notes-words", HTMLElement);
const status = new StatusLine(byTestId("notes-status", HTMLElement));

const app = new App({ name: "notes", version: "1.0.0" }, {}, { autoResize: true });

let storageKey = notesStorageKey(undefined);
// Whether the text came from the person (typed here, or a draft they typed earlier): the tool's
// result must not overwrite it then.
let textFromPerson = false;
let connected = false;
// Whether the host sent the tool's input yet; until then there is nothing worth reporting.
let inputReceived = false;

function showText(text: string): void {
  textArea.value = text;
  refreshControls();
}

function refreshControls(): void {
  const words = countWords(textArea.value);
  wordCount.textContent = wordPhrase(words);
  textArea.disabled = !connected;
  saveButton.disabled = !connected;
  askButton.disabled = !connected || words === 0;
}

// Reports run one at a time; changes made while one is on its way are sent as one report after
// it, so the host always ends with the latest text and is not flooded while the person types.
let reportRunning = false;
let reportPending = false;
let lastReportedText: string | undefined;

async function reportNotes(): Promise<void> {
  if (!connected || app.getHostCapabilities()?.updateModelContext === undefined) return;
  if (reportRunning) {
    reportPending = true;
    return;
  }
  reportRunning = true;
  try {
    do {
      reportPending = false;
      const text = textArea.value;
      // Each report replaces the last, so the same text twice tells the host nothing new.
      if (text === lastReportedText) continue;
      const report = notesReport(text);
      await app.updateModelContext({
        content: [{ type: "text", text: report.text }],
        structuredContent: report.structuredContent,
      });
      lastReportedText = text;
    } while (reportPending);
  } catch (error) {
    status.show(
      `The assistant could not be told about the notes: ${requestErrorMessage(error)}`,
      "error",
    );
  } finally {
    reportRunning = false;
  }
}

app.ontoolinput = (params) => {
  inputReceived = true;
  const toolArguments = params.arguments as Record<string, unknown> | undefined;
  storageKey = notesStorageKey(toolArguments);
  const draft = readDraft(storageKey);
  if (draft !== undefined) {
    textFromPerson = true;
    showText(draft);
  } else if (typeof toolArguments?.["text"] === "string") {
    showText(toolArguments["text"]);
  }
  void reportNotes();
};

app.ontoolresult = (result) => {
  inputReceived = true;
  if (result.isError === true) {
    status.show(resultText(result, "The notes could not be opened."), "error");
    return;
  }
  const text = (result.structuredContent as Record<string, unknown> | undefined)?.["text"];
  if (!textFromPerson && typeof text === "string") {
    showText(text);
    void reportNotes();
  }
  status.show("Your notes are ready. The assistant sees a short summary of them.");
};

app.ontoolcancelled = (params) => {
  status.show(
    params.reason === undefined
      ? "Opening the notes was cancelled."
      : `Opening the notes was cancelled: ${params.reason}`,
    "error",
  );
};

app.onhostcontextchanged = (context) => applyHostContext(context);

app.onteardown = () => {
  writeDraft(storageKey, textArea.value);
  return {};
};

textArea.addEventListener("input", () => {
  textFromPerson = true;
  writeDraft(storageKey, textArea.value);
  refreshControls();
  void reportNotes();
});

saveButton.addEventListener("click", async () => {
  saveButton.disabled = true;
  status.show("Saving…");
  try {
    const result = await app.callServerTool({
      name: "save-notes",
      arguments: { text: textArea.value },
    });
    if (result.isError === true) {
      status.show(resultText(result, "The notes could not be saved."), "error");
    } else {
      status.show(resultText(result, "Saved."), "success");
    }
  } catch (error) {
    status.show(requestErrorMessage(error), "error");
  } finally {
    refreshControls();
  }
});

askButton.addEventListener("click", async () => {
  askButton.disabled = true;
  try {
    const result = await app.sendMessage({
      role: "user",
      content: [{ type: "text", text: askText(textArea.value) }],
    });
    status.show(
      result.isError === true
        ? "The host did not pass the question on."
        : "Asked the assistant about your notes.",
      result.isError === true ? "error" : "success",
    );
  } catch (error) {
    status.show(requestErrorMessage(error), "error");
  } finally {
    refreshControls();
  }
});

async function start(): Promise<void> {
  try {
    await app.connect();
  } catch (error) {
    status.show(`Could not connect to the host: ${requestErrorMessage(error)}`, "error");
    return;
  }
  connected = true;
  applyHostContext(app.getHostContext());
  refreshControls();
  if (inputReceived) void reportNotes();
  else status.show("Connected. Waiting for the notes…");
}

void start();
