import type { ChatTool } from "@mcp-chat-host/protocol";

/** How the page names a tool: its own name, its source, and the model's name when different. */
export interface ToolLabel {
  /** The tool's own name on its source. */
  name: string;
  /** Its source, when known. */
  source: string | null;
  /** The name the model was given, only when it differs from `name`. */
  modelName: string | null;
}

/**
 * Names a model tool call for the person: the tool's own name and source, never only the name
 * the model used. A call that came without its source (a refusal, a message saved before the
 * server said) is looked up in the chat's tool list, by model name first.
 *
 * @param call - what the call's row knows.
 * @param tools - the chat's tools (`chat:tools`), if known.
 * @returns the label.
 */
export function labelToolCall(
  call: { name: string; source: string | null; modelName: string | null },
  tools: readonly ChatTool[] | undefined,
): ToolLabel {
  if (call.source !== null) {
    return {
      name: call.name,
      source: call.source,
      modelName: call.modelName !== null && call.modelName !== call.name ? call.modelName : null,
    };
  }
  const listed = tools ?? [];
  const byModelName = listed.find((tool) => tool.modelName === call.name);
  const byName = listed.filter((tool) => tool.name === call.name);
  const tool = byModelName ?? (byName.length === 1 ? byName[0] : undefined);
  if (tool === undefined) {
    return { name: call.name, source: null, modelName: call.modelName };
  }
  return {
    name: tool.name,
    source: tool.source,
    modelName: tool.modelName !== tool.name ? tool.modelName : null,
  };
}

/**
 * The name the model was given for a source's tool, when it differs from the tool's own name.
 *
 * @returns the model name, or null (same name, or the tool is not in the list).
 */
export function modelNameOf(
  tool: string,
  source: string,
  tools: readonly ChatTool[] | undefined,
): string | null {
  const listed = (tools ?? []).find((entry) => entry.name === tool && entry.source === source);
  return listed !== undefined && listed.modelName !== tool ? listed.modelName : null;
}
