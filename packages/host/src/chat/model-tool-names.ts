// The names a chat gives the model for its tools. MCP allows tool names that providers refuse
// (dots, slashes, more than 64 characters), and two sources may offer the same name; one such
// tool must never break a chat or hide another. Each tool gets a name every provider accepts,
// unique in the chat, derived only from (source, tool name): the same tools get the same names
// after a restart, so a saved conversation's tool calls still match.
import { createHash } from "node:crypto";

/** What every provider accepts: OpenAI `^[a-zA-Z0-9_-]+$` up to 64, Anthropic up to 128. */
export const MODEL_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The longest model tool name. */
const MAX_MODEL_TOOL_NAME_LENGTH = 64;

/** Between a source's part and a tool's part of a derived name. */
const SEPARATOR = "__";

/** One tool of a chat before naming. */
export interface NamedToolInput {
  source: string;
  name: string;
}

/** The name the model is given for one tool, and why it differs from the tool's own. */
export interface ModelToolName {
  source: string;
  name: string;
  modelName: string;
  /** A sentence for the person when `modelName` differs from `name`. */
  renamed?: string;
  /** True when another source of the chat offers a tool of the same name. */
  shared: boolean;
  /**
   * True when `modelName` could not keep every letter of the tool's own name (a name in a script
   * without Latin letters, `時刻`): the model reads the own name in the tool's description instead.
   */
  lettersLost?: true;
}

/**
 * Names a chat's tools for the model. A tool keeps its own name when every provider accepts it
 * and no other source of the chat offers the same name; otherwise it gets
 * `<source>__<name>` with every character providers refuse replaced by `_`, shortened with a
 * hash of (source, name) when too long. When two sources offer the same name, both are renamed,
 * so a server listed first cannot take a trusted server's name.
 *
 * @param tools - the chat's tools, in the order the model is shown them.
 * @returns one entry per tool, in the same order; model names are unique.
 */
export function assignModelToolNames(tools: readonly NamedToolInput[]): ModelToolName[] {
  const count = new Map<string, number>();
  for (const tool of tools) count.set(tool.name, (count.get(tool.name) ?? 0) + 1);
  const taken = new Set<string>();
  // Tools that keep their own name claim it first, so a derived name never takes it from them.
  const keeps = tools.map(
    (tool) => MODEL_TOOL_NAME_PATTERN.test(tool.name) && count.get(tool.name) === 1,
  );
  tools.forEach((tool, index) => {
    if (keeps[index] === true) taken.add(tool.name);
  });
  return tools.map((tool, index) => {
    const shared = (count.get(tool.name) ?? 0) > 1;
    if (keeps[index] === true)
      return { source: tool.source, name: tool.name, modelName: tool.name, shared };
    const lost = lettersLost(tool.source) || lettersLost(tool.name);
    let modelName = derivedName(tool.source, tool.name);
    if (taken.has(modelName)) modelName = withHash(modelName, tool.source, tool.name);
    // A hash collision among a chat's tools is not expected; a counter keeps names unique anyway.
    for (let attempt = 2; taken.has(modelName) && attempt < 1_000; attempt += 1) {
      modelName = withHash(
        derivedName(tool.source, tool.name),
        `${tool.source}#${attempt}`,
        tool.name,
      );
    }
    taken.add(modelName);
    return {
      source: tool.source,
      name: tool.name,
      modelName,
      shared,
      ...(lost ? { lettersLost: true as const } : {}),
      renamed: shared
        ? `Another source of this chat also offers a tool named "${tool.name}", so the model knows this one as "${modelName}".`
        : `The name "${tool.name}" is not one every model accepts, so the model knows it as "${modelName}".`,
    };
  });
}

/**
 * `<source>__<name>` in the characters providers accept, at most 64 of them. A part whose letters
 * could not all be kept ends with a hash of (source, name), so two names in another script never
 * meet on the same Latin remainder and each keeps its model name whatever the order of the tools.
 */
function derivedName(source: string, name: string): string {
  const joined = `${safePart(source)}${SEPARATOR}${safePart(name)}`;
  if (lettersLost(source) || lettersLost(name)) return withHash(joined, source, name);
  return joined.length <= MAX_MODEL_TOOL_NAME_LENGTH ? joined : withHash(joined, source, name);
}

/**
 * Letters with accents keep their base letter (`é` is `e`, `ﬁ` is `fi`): what is left outside
 * ASCII has no Latin spelling here.
 */
function folded(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "");
}

/** Whether a name has letters or digits that no character providers accept can spell. */
function lettersLost(text: string): boolean {
  return /[^\p{ASCII}]/u.test(folded(text).replace(/[^\p{L}\p{N}]/gu, ""));
}

/**
 * The part of a model name for a source or tool name: accents dropped, every other character
 * providers refuse replaced by `_` (a run of another script by one `_`, trimmed at the ends);
 * `tool` when nothing Latin is left, so `時刻` becomes `tool` (and a hash, see {@link derivedName}).
 */
function safePart(text: string): string {
  const latin = folded(text).replace(/[^\p{ASCII}]+/gu, "_");
  const safe = latin.replace(/[^A-Za-z0-9_-]/g, "_");
  const kept = lettersLost(text) ? safe.replace(/^_+|_+$/g, "") : safe;
  return kept === "" ? "tool" : kept;
}

/** Shortens `base` to fit with `-<8 hex of hash(source, name)>` at its end. */
function withHash(base: string, source: string, name: string): string {
  const hash = createHash("sha256").update(`${source}\u0000${name}`).digest("hex").slice(0, 8);
  return `${base.slice(0, MAX_MODEL_TOOL_NAME_LENGTH - hash.length - 1)}-${hash}`;
}
