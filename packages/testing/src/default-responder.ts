import type { RequestView } from "./request-view";
import type { ScriptedReply } from "./scripted-reply";

/** Finds `call <tool> <json>` in the person's text: the tool name, then optional JSON arguments. */
export const callCommandPattern = /\bcall\s+([A-Za-z0-9_.:/-]+)\s*(\{[\s\S]*\})?/;

const resultPreviewLength = 200;

function resultSummary(view: RequestView): string {
  const last = view.messages.at(-1);
  const calls = view.messages.flatMap((message) => message.toolCalls);
  const summaries = (last?.toolResults ?? []).map((result) => {
    const name = calls.find((call) => call.id === result.callId)?.name ?? result.callId;
    const output =
      result.output.length > resultPreviewLength
        ? `${result.output.slice(0, resultPreviewLength)}…`
        : result.output;
    return `The tool ${name} returned: ${output}`;
  });
  return summaries.join("\n");
}

/**
 * The stand-in model's default behaviour, so most tests need no script:
 *
 * - after tool results (the last input is a tool result): text naming each tool and what it
 *   returned (`The tool get_time returned: {"time":"12:00"}`, outputs cut at 200 characters);
 * - when the person's last text says `call <tool> <json>` (e.g. `call get_time {"zone":"UTC"}`,
 *   arguments optional): that tool call, if a tool of that name is offered, else text saying it is
 *   not (`I cannot call get_time: no tool by that name was offered.`); invalid JSON arguments get
 *   text saying so;
 * - otherwise an echo: `You said: <text>` (`Hello from the stand-in model.` with no user text).
 *
 * @returns the reply for this request.
 */
export function defaultResponder(view: RequestView): ScriptedReply {
  if (view.lastInputIsToolResult) return { text: resultSummary(view) };
  const text = view.lastUserText ?? "";
  const command = callCommandPattern.exec(text);
  if (command !== null) {
    const name = command[1] ?? "";
    if (!view.toolNames.includes(name)) {
      return { text: `I cannot call ${name}: no tool by that name was offered.` };
    }
    const argumentsText = command[2] ?? "{}";
    try {
      JSON.parse(argumentsText);
    } catch {
      return { text: `The arguments for ${name} are not valid JSON: ${argumentsText}` };
    }
    return { toolCalls: [{ name, arguments: argumentsText }] };
  }
  return { text: text.length > 0 ? `You said: ${text}` : "Hello from the stand-in model." };
}
