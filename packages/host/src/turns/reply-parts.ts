// A reply's parts as they are written, and the chunk each change sends (`reply-chunks.ts` in the
// protocol): every change of `parts` goes out as the one chunk that makes the same change in a
// tab, so the stored reply, the live snapshot and the tabs hold the same parts in the same order.
import {
  isSettledToolState,
  toolPartStateRank,
  type CardDescriptor,
  type ReplyChunk,
} from "@mcp-chat-host/protocol";
import type { JsonValue, MessagePart, ToolPart, ToolPartState } from "../store/host-store";

/** A call's names as stored: its tool's own name, its source, the model's name if it differs. */
export interface ToolCallNames {
  name: string;
  source?: string;
  modelName?: string;
}

/** Whether a tool part has its outcome (output, error or refusal). */
export function isSettled(part: Pick<ToolPart, "state">): boolean {
  return isSettledToolState(part.state);
}

/** The parts of one reply, and the chunks that tell the tabs of each change. */
export class ReplyParts {
  /** The reply's parts so far, in order. */
  readonly parts: MessagePart[] = [];
  /** All the reply's text so far, in characters (a delta's `offset`). */
  #textLength = 0;
  /** How many text parts were opened (their ids). */
  #texts = 0;
  /** The id of the text part being written, or null. */
  #openText: string | null = null;
  /** A new model step began: the next text starts a new paragraph. */
  #newParagraph = false;

  /** @param send - sends one chunk to the tabs. */
  constructor(private readonly send: (chunk: ReplyChunk) => void) {}

  /** A new model step began: text that follows is a paragraph of its own. */
  newStep(): void {
    this.#newParagraph = true;
  }

  /**
   * Adds text. A later step's text is a paragraph of its own: the blank line travels in the
   * delta, so the tab's text and the stored text stay the same.
   */
  addText(text: string): void {
    const delta = this.#newParagraph && this.#textLength > 0 ? `\n\n${text}` : text;
    this.#newParagraph = false;
    const last = this.parts.at(-1);
    if (last?.type === "text" && this.#openText !== null) {
      last.text += delta;
    } else {
      this.parts.push({ type: "text", text: delta });
      this.#texts += 1;
      this.#openText = `text-${this.#texts}`;
      this.send({ type: "text-start", id: this.#openText });
    }
    this.send({ type: "text-delta", id: this.#openText, delta, offset: this.#textLength });
    this.#textLength += delta.length;
  }

  /** The tool part of a call, if it has one. */
  tool(toolCallId: string): ToolPart | undefined {
    return this.parts.find(
      (part): part is ToolPart => part.type === "tool" && part.toolCallId === toolCallId,
    );
  }

  /**
   * The call's tool part, born now at the end of the reply (`input-streaming`, empty input) if it
   * has none yet.
   */
  startTool(toolCallId: string, names: ToolCallNames, startedAt: number): ToolPart {
    const known = this.tool(toolCallId);
    if (known) return known;
    this.#endText();
    const part: ToolPart = {
      type: "tool",
      toolCallId,
      ...names,
      state: "input-streaming",
      input: {},
    };
    this.parts.push(part);
    this.send({
      type: "tool-input-start",
      toolCallId,
      toolName: names.name,
      ...(names.source === undefined ? {} : { source: names.source }),
      ...(names.modelName === undefined ? {} : { modelName: names.modelName }),
      startedAt,
    });
    return part;
  }

  /**
   * What the model wrote of the call's input so far.
   *
   * @returns true when it changed the part (it is still streaming and the reading is new).
   */
  inputDelta(toolCallId: string, input: Record<string, unknown>): boolean {
    const part = this.tool(toolCallId);
    if (part?.state !== "input-streaming") return false;
    if (JSON.stringify(part.input) === JSON.stringify(input)) return false;
    part.input = input as JsonValue;
    this.send({ type: "tool-input-delta", toolCallId, input });
    return true;
  }

  /** The call's input is complete (the call runs now). */
  inputAvailable(toolCallId: string, input: Record<string, unknown>): void {
    const part = this.#moving(toolCallId, "input-available");
    if (!part) return;
    part.state = "input-available";
    part.input = input as JsonValue;
    this.send({ type: "tool-input-available", toolCallId, input });
  }

  /** The running call reported progress (not stored: it is only news while the call runs). */
  progress(toolCallId: string, progress: { progress: number; total?: number; message?: string }) {
    const part = this.tool(toolCallId);
    if (part === undefined || isSettled(part)) return;
    this.send({ type: "data-tool-progress", toolCallId, ...progress });
  }

  /** The call's card was stored: the part gets it, and the tabs mount it in the part's place. */
  card(toolCallId: string, card: CardDescriptor): void {
    const part = this.tool(toolCallId);
    if (!part || part.instanceId !== undefined) return;
    part.instanceId = card.instanceId;
    this.send({ type: "data-card", toolCallId, card });
  }

  /** The call's card is taken back (its input could not be read). */
  withdrawCard(toolCallId: string, reason: string): void {
    const part = this.tool(toolCallId);
    const instanceId = part?.instanceId;
    if (!part || instanceId === undefined) return;
    delete part.instanceId;
    this.send({ type: "data-card-withdrawn", toolCallId, instanceId, reason });
  }

  /** The call returned: `output` is what the model got, `cardResult` what the card's page gets. */
  outputAvailable(
    toolCallId: string,
    output: JsonValue,
    cardResult: Record<string, unknown> | undefined,
    durationMs: number,
  ): void {
    const part = this.#moving(toolCallId, "output-available");
    if (!part) return;
    part.state = "output-available";
    part.output = output;
    this.send({
      type: "tool-output-available",
      toolCallId,
      output,
      ...(cardResult === undefined ? {} : { cardResult }),
      durationMs,
    });
  }

  /** The call failed or was stopped; with `cardResult`, the tool answered with an error result. */
  outputError(
    toolCallId: string,
    errorText: string,
    cardResult: Record<string, unknown> | undefined,
    durationMs: number,
  ): void {
    const part = this.#moving(toolCallId, "output-error");
    if (!part) return;
    part.state = "output-error";
    part.errorText = errorText;
    this.send({
      type: "tool-output-error",
      toolCallId,
      errorText,
      ...(cardResult === undefined ? {} : { cardResult }),
      durationMs,
    });
  }

  /** The call was refused before it ran; `reason` is a sentence for the person. */
  outputDenied(toolCallId: string, reason: string): void {
    const part = this.#moving(toolCallId, "output-denied");
    if (!part) return;
    part.state = "output-denied";
    part.errorText = reason;
    this.send({ type: "tool-output-denied", toolCallId, reason });
  }

  /**
   * The reply ends: its open text part is complete, and every call without an outcome (its input
   * still streaming, or never run) fails with `reason`.
   *
   * @returns the ids of the calls that failed now.
   */
  settle(reason: string): string[] {
    this.#endText();
    const open = this.parts.filter(
      (part): part is ToolPart => part.type === "tool" && !isSettled(part),
    );
    for (const part of open) this.outputError(part.toolCallId, reason, undefined, 0);
    return open.map((part) => part.toolCallId);
  }

  /** The call's part, when moving it to `state` moves it forward (else the chunk is a repeat). */
  #moving(toolCallId: string, state: ToolPartState): ToolPart | undefined {
    const part = this.tool(toolCallId);
    if (!part || toolPartStateRank[state] <= toolPartStateRank[part.state]) return undefined;
    return part;
  }

  /** Ends the text part being written, if one is. */
  #endText(): void {
    if (this.#openText === null) return;
    this.send({ type: "text-end", id: this.#openText });
    this.#openText = null;
  }
}
