// A reply as one ordered stream of parts: the chunks the server sends while a model turn writes
// its reply (`message:chunk`), modelled on the AI SDK's UI message stream (`ui-message-chunks.ts`
// in the `ai` package), whose verbs and tool states they keep. Where they depart, it is said here.
import type { CardDescriptor } from "./card-records";

/**
 * Where a reply's tool part is in its life, as the AI SDK names it: the model is writing the
 * call's input, the input is complete (the call runs, or waits for approval), the call returned,
 * it failed (or was stopped), or it was refused before it ran.
 */
export const toolPartStates = [
  "input-streaming",
  "input-available",
  "output-available",
  "output-error",
  "output-denied",
] as const;

/** One of {@link toolPartStates}. */
export type ToolPartState = (typeof toolPartStates)[number];

/**
 * How far along each state is. A tool part only moves to a state of a higher rank: a chunk that
 * would not move it forward is a repeat (a tab that read a snapshot mid-reply hears it again).
 */
export const toolPartStateRank: Readonly<Record<ToolPartState, number>> = {
  "input-streaming": 0,
  "input-available": 1,
  "output-available": 2,
  "output-error": 2,
  "output-denied": 2,
};

/** Whether a tool part in this state has its outcome (output, error or refusal). */
export function isSettledToolState(state: ToolPartState): boolean {
  return toolPartStateRank[state] === toolPartStateRank["output-available"];
}

/**
 * One step of a reply being written. Text parts and tool parts are opened in the order the model
 * wrote them, and every later chunk names the part it changes, so the browser appends and
 * updates parts and never has to work out where one goes.
 */
export type ReplyChunk =
  /** A text part begins, at the end of the reply. `id` names it for its deltas. */
  | { type: "text-start"; id: string }
  /**
   * More text of the part `id`. `offset` is how many characters of text (all the reply's text
   * parts together) the reply had before this delta: a tab that already has more skips what it
   * has, and one that has less missed some and asks for a fresh snapshot. (The AI SDK's delta
   * has no offset; this project's replies are also joined by tabs in the middle.)
   */
  | { type: "text-delta"; id: string; delta: string; offset: number }
  /** The text part `id` is complete. */
  | { type: "text-end"; id: string }
  /**
   * A tool part begins, at the end of the reply, in state `input-streaming`: the model started
   * writing a call of `toolName` (the tool's own name on its source; `modelName` is the name the
   * model was given, when it differs).
   */
  | {
      type: "tool-input-start";
      toolCallId: string;
      toolName: string;
      source?: string;
      modelName?: string;
      startedAt: number;
    }
  /**
   * What the model wrote of the call's input so far, read as far as it parses. Each replaces the
   * previous. (The AI SDK sends the raw text delta; the server reads the partial JSON once, for
   * the tool row and for the card's `tool-input-partial`, so every tab shows the same reading.)
   */
  | { type: "tool-input-delta"; toolCallId: string; input: Record<string, unknown> }
  /** The call's input is complete: the part moves to `input-available` and the call runs. */
  | { type: "tool-input-available"; toolCallId: string; input: unknown }
  /** The running call reported progress (an MCP progress notification). */
  | {
      type: "data-tool-progress";
      toolCallId: string;
      progress: number;
      total?: number;
      message?: string;
    }
  /**
   * The tool part's card: the call's tool has a view, so a card opened as the child of this part
   * (when the part is born, and sent once it is stored, always before the part's output). Its
   * place in the reply is its part's place. It may follow some of the part's `tool-input-delta`s,
   * or its `tool-input-available`: the descriptor is as far along as the part was when it was
   * sent (`inputStreaming` and the partial `arguments` while the input streams, else the final
   * ones), and the part's later input chunks are the card's input from then on.
   */
  | { type: "data-card"; toolCallId: string; card: CardDescriptor }
  /**
   * The part's card is withdrawn: the call was refused before it ran because its input could not
   * be read. The page drops the card; the part says why (`tool-output-denied` follows).
   */
  | { type: "data-card-withdrawn"; toolCallId: string; instanceId: string; reason: string }
  /** The call returned: the part moves to `output-available`. `output` is what the model got. */
  | {
      type: "tool-output-available";
      toolCallId: string;
      output: unknown;
      /** The card's result, when the part has a card (its page gets `tool-result`). */
      cardResult?: Record<string, unknown>;
      durationMs: number;
    }
  /**
   * The call failed or was stopped: the part moves to `output-error`. `errorText` is a sentence
   * for the person (and what the model was told).
   */
  | {
      type: "tool-output-error";
      toolCallId: string;
      errorText: string;
      /**
       * The card's result, when the tool answered with an MCP error result (`isError`): the page
       * gets `tool-result` with it. Absent when the call threw or was stopped: the page gets
       * `tool-cancelled` with `errorText`. (The AI SDK has no card; its error part has no result.)
       */
      cardResult?: Record<string, unknown>;
      durationMs: number;
    }
  /**
   * The call was refused before it ran (permissions, the operator's `onToolRequest`, a budget,
   * unreadable input): the part moves to `output-denied`. `reason` is a sentence for the person.
   */
  | { type: "tool-output-denied"; toolCallId: string; reason: string };

/** The verbs of {@link ReplyChunk}. */
export type ReplyChunkType = ReplyChunk["type"];
