import type {
  ConversationRecord,
  HostStore,
  MessageChanges,
  MessageRecord,
  NewMessage,
} from "../store/host-store";

/** What the node adds to the store its sessions use. */
export interface ClusterStoreHooks {
  /** This node's id, kept with every reply it starts writing. */
  nodeId: string;
  /** The parts of a reply being written on any node, or null. */
  liveParts(messageId: string): Promise<MessagePart[] | null>;
  /** Told after a user's conversation list changed (created, renamed, deleted, imported). */
  conversationsChanged(userId: string): void;
  /** True once the node stops for good: a reply it cuts short then is `interrupted`, not `stopped`. */
  stopping(): boolean;
}

type MessagePart = MessageRecord["parts"][number];

/**
 * The store as the node's sessions see it: a reply started here names this node (so only this
 * node's death interrupts it), a conversation read while another tab's reply is being written
 * carries the text written so far, every change to the conversation list is told to the user's
 * other tabs, and a reply cut short by the node's own stop becomes `interrupted`.
 *
 * @param base - the store.
 * @param hooks - the node's id and its cross-tab channel.
 * @returns a store with the same methods.
 */
export function clusterStore(base: HostStore, hooks: ClusterStoreHooks): HostStore {
  const changed = <T>(userId: string, result: T): T => {
    if (result !== null && result !== false) hooks.conversationsChanged(userId);
    return result;
  };
  // A reply being written on any node carries the text written so far.
  const withLiveParts = (messages: MessageRecord[]) =>
    Promise.all(
      messages.map(async (message) => {
        if (message.status !== "streaming" || message.role !== "assistant") return message;
        const parts = await hooks.liveParts(message.id);
        return parts === null ? message : { ...message, parts };
      }),
    );
  const overrides: Partial<HostStore> = {
    appendMessage: (message: NewMessage) =>
      base.appendMessage(
        message.role === "assistant" && message.status === "streaming"
          ? { ...message, nodeId: hooks.nodeId }
          : message,
      ),
    updateMessage: (conversationId: string, messageId: string, changes: MessageChanges) =>
      base.updateMessage(
        conversationId,
        messageId,
        changes.status === "stopped" && hooks.stopping()
          ? { ...changes, status: "interrupted" }
          : changes,
      ),
    listMessages: async (conversationId: string) =>
      withLiveParts(await base.listMessages(conversationId)),
    listMessagePage: async (conversationId, page) => {
      const found = await base.listMessagePage(conversationId, page);
      return { ...found, messages: await withLiveParts(found.messages) };
    },
    createConversation: async (userId, conversation) =>
      changed(userId, await base.createConversation(userId, conversation)),
    renameConversation: async (userId, id, title) =>
      changed<ConversationRecord | null>(userId, await base.renameConversation(userId, id, title)),
    deleteConversation: async (userId, id) =>
      changed(userId, await base.deleteConversation(userId, id)),
    importConversation: async (userId, document) =>
      changed(userId, await base.importConversation(userId, document)),
  };
  return new Proxy(base, {
    get(target, property, receiver) {
      if (typeof property === "string" && property in overrides)
        return overrides[property as keyof HostStore];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function"
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
