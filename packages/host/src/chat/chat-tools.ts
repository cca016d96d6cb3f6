// The tools each chat offers the model: listed from the chat's sources, named for the model
// (model-tool-names.ts), and announced to the browser when the list changes, so the person can
// see which tools the model knows under another name.
import type { ChatTool, ServerEvents } from "@mcp-chat-host/protocol";
import type { Chat } from "../session/chat";
import type { Source, SourceTool } from "../sources/source";
import { signInRequiredIn, sourceAttachFailure } from "../sources/source-attach-failure";
import { isVisibleTo } from "../sources/tool-metadata";
import { assignModelToolNames, type ModelToolName } from "./model-tool-names";

/** One tool a chat offers the model. */
export interface ListedTool {
  tool: SourceTool;
  /** The source's key. */
  source: string;
  /** The name the model is given. */
  modelName: string;
  /** Why `modelName` differs from the tool's own name, for the person. */
  renamed?: string;
  /** The description the model is given (says the source when two sources share the name). */
  description: string;
}

/** What {@link ChatToolLists} needs from its session. */
export interface ChatToolListsPorts {
  source(key: string): Promise<Source>;
  warn(details: Record<string, unknown>, message: string): void;
  announce(event: ServerEvents["chat:tools"]): void;
  /** Tells the person that a source of a chat could not be attached (once per failure). */
  notify(message: string): void;
}

/** The model tools of a session's chats, as last listed. */
export class ChatToolLists {
  readonly #lists = new Map<string, ListedTool[]>();
  readonly #announced = new Map<string, string>();
  /** The failure last reported for each source, so a broken server is reported once. */
  readonly #failed = new Map<string, string>();

  constructor(private readonly ports: ChatToolListsPorts) {}

  /**
   * Lists the chat's model-visible tools from its sources and names them for the model; tells
   * the browser when the list differs from the last one announced. A source that cannot be opened
   * or cannot list its tools is left out (the other sources still work), and its failure is
   * logged and told to the person once, until it changes or the source works again.
   *
   * @returns the tools, in the order the model is shown them.
   */
  async list(chat: Chat): Promise<ListedTool[]> {
    const found: { tool: SourceTool; source: string }[] = [];
    for (const key of chat.host?.sourceKeys ?? []) {
      let tools: SourceTool[];
      try {
        const source = await this.ports.source(key);
        tools = (await source.tools()).filter((tool) => isVisibleTo(tool, "model"));
        this.#failed.delete(key);
      } catch (error) {
        this.#reportFailure(key, error);
        continue;
      }
      if (tools.length === 0)
        this.ports.warn({ source: key }, `${key} has no tools for the model to call.`);
      for (const tool of tools) found.push({ tool, source: key });
    }
    const names = assignModelToolNames(
      found.map(({ tool, source }) => ({ source, name: tool.name })),
    );
    const listed = found.map(({ tool, source }, index): ListedTool => {
      const named = names[index];
      const entry: ListedTool = {
        tool,
        source,
        modelName: named?.modelName ?? tool.name,
        description: modelDescription(tool, source, named),
      };
      if (named?.renamed !== undefined) entry.renamed = named.renamed;
      return entry;
    });
    for (const entry of listed) {
      if (entry.renamed !== undefined) {
        this.ports.warn(
          {
            chat: chat.key,
            source: entry.source,
            tool: entry.tool.name,
            modelName: entry.modelName,
          },
          entry.renamed,
        );
      }
    }
    this.#lists.set(chat.key, listed);
    this.#announce(chat.key, listed);
    return listed;
  }

  /** Logs and tells a source's failure, unless this same failure was reported last time. */
  #reportFailure(key: string, error: unknown): void {
    const failure = sourceAttachFailure(key, error);
    if (this.#failed.get(key) === failure.message) return;
    this.#failed.set(key, failure.message);
    const code = (error as { code?: unknown } | null)?.code;
    this.ports.warn(
      {
        source: key,
        ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
        ...(failure.needsAuthorization ? { needsAuthorization: true } : {}),
        ...(failure.detail === undefined ? {} : { detail: failure.detail }),
      },
      failure.message,
    );
    // A server the person signs in to is shown where they meet it (the chat's sign-in bar and the
    // servers panel, which follow its state); a notice would outlive the sign-in.
    if (signInRequiredIn(error) === undefined) this.ports.notify(failure.message);
  }

  /** The chat's tools as last listed, or undefined before the first listing. */
  get(chatKey: string): ListedTool[] | undefined {
    return this.#lists.get(chatKey);
  }

  /** The chat's model tools as last listed: `name` as the model knows it, `tool` its own name. */
  toolsOf(chatKey: string): { name: string; tool: string; source: string; description: string }[] {
    return (this.#lists.get(chatKey) ?? []).map((entry) => ({
      name: entry.modelName,
      tool: entry.tool.name,
      source: entry.source,
      description: entry.description,
    }));
  }

  /** The chat's tool the model knows by this name. */
  byModelName(chatKey: string, modelName: string): ListedTool | undefined {
    return this.#lists.get(chatKey)?.find((entry) => entry.modelName === modelName);
  }

  /** The `chat:tools` event of every listed chat (for a tab that just said hello). */
  events(): ServerEvents["chat:tools"][] {
    return [...this.#lists].map(([chatId, listed]) => ({ chatId, tools: listed.map(toChatTool) }));
  }

  #announce(chatId: string, listed: readonly ListedTool[]): void {
    const tools = listed.map(toChatTool);
    const json = JSON.stringify(tools);
    if (this.#announced.get(chatId) === json) return;
    this.#announced.set(chatId, json);
    this.ports.announce({ chatId, tools });
  }
}

function toChatTool(entry: ListedTool): ChatTool {
  const tool: ChatTool = {
    modelName: entry.modelName,
    name: entry.tool.name,
    source: entry.source,
  };
  if (entry.tool.title !== undefined) tool.title = entry.tool.title;
  if (entry.renamed !== undefined) tool.renamed = entry.renamed;
  return tool;
}

/**
 * The description the model is given for a tool: its own, after what the model name cannot say.
 * A name shared by two sources says its source; a name whose letters a model name cannot spell
 * (`時刻`) says that name (and its title), so the model and the person still share a word for it.
 */
function modelDescription(
  tool: SourceTool,
  source: string,
  named: ModelToolName | undefined,
): string {
  const description = tool.description ?? tool.title ?? "";
  const notes: string[] = [];
  if (named?.shared === true) notes.push(`(From ${source}.)`);
  if (named?.lettersLost === true) {
    const title =
      tool.title !== undefined && tool.title !== tool.name && !description.includes(tool.title)
        ? ` (${tool.title})`
        : "";
    notes.push(`(Its own name is "${tool.name}"${title}.)`);
  }
  return [...notes, description].join(" ").trim();
}
