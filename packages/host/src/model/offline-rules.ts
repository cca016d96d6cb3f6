// The offline model's whole mind (docs/architecture.md, "The offline model"): a few fixed rules
// over the prompt, checked in this order. 1. The last message is a tool result: report it. 2. The
// person's message is `/call <tool> <json-object?>`: call that tool. 3. It names a tool: call it,
// or say which arguments it needs. 4. Apps reported context: list them. 5. Otherwise: say no apps
// are open, which tools there are, and how to call one.
import type {
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3FunctionTool,
} from "@ai-sdk/provider";

/** What the offline model decided to do with a prompt. */
export type OfflineDecision =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolName: string; input: Record<string, unknown> };

/** A tool as the offline model knows it: name, optional title, required argument names. */
export interface OfflineTool {
  name: string;
  title?: string;
  required: string[];
}

/** The start of the app-context message (the context relay's header). */
const APP_CONTEXT_HEADER_START = "The person has these apps open in the conversation.";

/** The most characters of a tool result the offline model repeats. */
const OFFLINE_RESULT_LIMIT = 500;

/**
 * Reads the tools of a model call into the offline model's terms. A title comes from the tool's
 * `providerOptions.offline.title`, where the model runner puts it (the model interface has no
 * title field).
 *
 * @returns the function tools, in the order given.
 */
export function offlineToolsFrom(
  tools: ReadonlyArray<{ type: string }> | undefined,
): OfflineTool[] {
  const result: OfflineTool[] = [];
  for (const candidate of tools ?? []) {
    if (candidate.type !== "function") continue;
    const functionTool = candidate as LanguageModelV3FunctionTool;
    const title = functionTool.providerOptions?.["offline"]?.["title"];
    const required = (functionTool.inputSchema as { required?: unknown }).required;
    result.push({
      name: functionTool.name,
      ...(typeof title === "string" && title !== "" ? { title } : {}),
      required: Array.isArray(required)
        ? required.filter((name): name is string => typeof name === "string")
        : [],
    });
  }
  return result;
}

/**
 * Applies the offline rules to a prompt.
 *
 * @returns a text answer, or the one tool call to make.
 */
export function decideOfflineReply(
  prompt: LanguageModelV3Prompt,
  tools: readonly OfflineTool[],
): OfflineDecision {
  const last = prompt.at(-1);
  if (last?.role === "tool") return text(describeToolResults(last.content));

  // A message an app wrote opens with a mark saying so (`person-content.ts`); the rules read past it.
  const personText = (last?.role === "user" ? userText(last.content) : "").replace(
    /^\[Message written by the app [^\n]*\]\n\n/,
    "",
  );
  if (personText !== "" && !personText.startsWith(APP_CONTEXT_HEADER_START)) {
    const command = /^\/call(?:\s|$)/.test(personText.trim());
    if (command) return decideCall(personText.trim().slice("/call".length).trim(), tools);
    const named = tools.find((tool) => namesTool(personText, tool));
    if (named !== undefined) {
      if (named.required.length === 0)
        return { type: "tool-call", toolName: named.name, input: {} };
      return text(describeRequiredArguments(named));
    }
  }

  const apps = readAppContext(prompt);
  if (apps.length > 0) {
    const count = apps.length === 1 ? "1 app" : `${apps.length} apps`;
    const lines = apps.map((app) => `${app.title}: ${app.firstLine}`);
    return text([`I can see ${count}:`, ...lines].join("\n"));
  }
  return text(describeNoApps(tools));
}

function text(value: string): OfflineDecision {
  return { type: "text", text: value };
}

function userText(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/** `/call` followed by `rest`: `<tool>` then an optional JSON object. */
function decideCall(rest: string, tools: readonly OfflineTool[]): OfflineDecision {
  if (rest === "") return text(callSyntaxHelp("name the tool to call.", tools));
  const [toolName = "", ...argumentWords] = rest.split(/(\s+)/);
  const argumentText = argumentWords.join("").trim();
  const tool =
    tools.find((candidate) => candidate.name === toolName) ??
    tools.find((candidate) => candidate.name.toLowerCase() === toolName.toLowerCase());
  if (tool === undefined) {
    return text(`I have no tool named "${toolName}". ${toolList(tools)}`);
  }
  if (argumentText === "") return { type: "tool-call", toolName: tool.name, input: {} };
  let input: unknown;
  try {
    input = JSON.parse(argumentText);
  } catch {
    return text(callSyntaxHelp(`the arguments for ${tool.name} are not valid JSON.`, tools));
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return text(callSyntaxHelp(`the arguments for ${tool.name} must be a JSON object.`, tools));
  }
  return { type: "tool-call", toolName: tool.name, input: input as Record<string, unknown> };
}

function callSyntaxHelp(problem: string, tools: readonly OfflineTool[]): string {
  return [`I couldn't make that call: ${problem}`, callSyntax(tools)].join("\n");
}

function callSyntax(tools: readonly OfflineTool[]): string {
  const example = tools[0]?.name ?? "get-time";
  return (
    `To call a tool, name it in your message, or write /call <tool> <json-object>, ` +
    `for example /call ${example} {} (the JSON object of arguments is optional).`
  );
}

function toolList(tools: readonly OfflineTool[]): string {
  if (tools.length === 0) return "There are no tools I can call.";
  const names = tools.map((tool) =>
    tool.title === undefined ? tool.name : `${tool.name} (${tool.title})`,
  );
  return `Tools I can call: ${names.join(", ")}.`;
}

function describeNoApps(tools: readonly OfflineTool[]): string {
  return [
    "No apps are open.",
    "I am the offline model: I follow a few fixed rules and use no network, so I can't hold a real conversation.",
    toolList(tools),
    callSyntax(tools),
  ].join("\n");
}

function describeRequiredArguments(tool: OfflineTool): string {
  const example = `{${tool.required.map((name) => `${JSON.stringify(name)}: ...`).join(", ")}}`;
  return (
    `${tool.name} needs these arguments: ${tool.required.join(", ")}. ` +
    `Call it with /call ${tool.name} ${example}, putting a value in place of each "...".`
  );
}

// A tool's name or title counts only as whole words: no letter, digit, "_" or "-" on either side.
function namesTool(message: string, tool: OfflineTool): boolean {
  const words = tool.title === undefined ? [tool.name] : [tool.name, tool.title];
  return words.some((word) => {
    if (word.trim() === "") return false;
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\p{L}\\p{N}_-])${escaped}(?![\\p{L}\\p{N}_-])`, "iu").test(message);
  });
}

function describeToolResults(
  content: ReadonlyArray<
    | { type: "tool-result"; toolName: string; output: LanguageModelV3ToolResultOutput }
    | { type: "tool-approval-response" }
  >,
): string {
  const lines: string[] = [];
  for (const part of content) {
    if (part.type !== "tool-result") continue;
    lines.push(`${part.toolName} returned: ${clip(firstText(part.output), OFFLINE_RESULT_LIMIT)}`);
  }
  return lines.join("\n");
}

function firstText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "The call was not allowed.";
    case "content": {
      const first = output.value.find((part) => part.type === "text");
      return first?.type === "text" ? first.text : "(no text)";
    }
  }
}

/** Cuts to at most `limit` characters (code points), ending with "..." when cut. */
function clip(value: string, limit: number): string {
  const characters = Array.from(value);
  if (characters.length <= limit) return value;
  return `${characters.slice(0, limit - 3).join("")}...`;
}

interface ReportedApp {
  title: string;
  firstLine: string;
}

/** The apps of the latest app-context message, in the order listed (oldest change first). */
function readAppContext(prompt: LanguageModelV3Prompt): ReportedApp[] {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (message?.role !== "user") continue;
    const content = userText(message.content);
    if (!content.startsWith(APP_CONTEXT_HEADER_START)) continue;
    const apps: ReportedApp[] = [];
    const block = /<app-context\b([^>]*)>\n?([\s\S]*?)\n?<\/app-context>/g;
    for (const match of content.matchAll(block)) {
      const title = decodeAttribute(/\bapp="([^"]*)"/.exec(match[1] ?? "")?.[1] ?? "");
      const lines = (match[2] ?? "").split("\n");
      const firstLine = lines.find((line) => line.trim() !== "") ?? "";
      apps.push({ title, firstLine: firstLine.trimEnd() });
    }
    return apps;
  }
  return [];
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (!body.startsWith("#")) return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
    const hexadecimal = body[1] === "x" || body[1] === "X";
    const codePoint = Number.parseInt(body.slice(hexadecimal ? 2 : 1), hexadecimal ? 16 : 10);
    // Left as written when it names no character, rather than failing the whole answer.
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
