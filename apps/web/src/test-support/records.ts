import type {
  ApprovalRequest,
  CardDescriptor,
  ChatMessage,
  ConversationSnapshot,
  ConversationSummary,
  SessionSnapshot,
} from "@mcp-chat-host/protocol";

/** A conversation summary for tests. */
export function conversationSummary(
  id: string,
  overrides: Partial<ConversationSummary> = {},
): ConversationSummary {
  return { id, title: `Title ${id}`, createdAt: 1, updatedAt: 1, imported: false, ...overrides };
}

/** A message for tests (text parts from `text`). */
export function chatMessage(
  id: string,
  overrides: Partial<ChatMessage> & { text?: string } = {},
): ChatMessage {
  const { text, ...rest } = overrides;
  return {
    id,
    conversationId: "conv-1",
    chatId: "chat",
    seq: 1,
    role: "assistant",
    parts: text === undefined ? [] : [{ type: "text", text }],
    status: "complete",
    createdAt: 1,
    ...rest,
  };
}

/** A card descriptor for tests. */
export function cardDescriptor(
  instanceId: string,
  overrides: Partial<CardDescriptor> = {},
): CardDescriptor {
  return {
    instanceId,
    conversationId: "conv-1",
    chatId: "chat",
    kind: "card",
    source: "notes",
    tool: "open-notes",
    arguments: {},
    result: null,
    title: "Notes",
    checked: false,
    createdAt: 1,
    ...overrides,
  };
}

/** A conversation snapshot for tests. */
export function conversationSnapshot(
  id: string,
  messages: ChatMessage[] = [],
  overrides: Partial<ConversationSnapshot> = {},
): ConversationSnapshot {
  return {
    conversation: conversationSummary(id),
    messages,
    cards: [],
    earlier: false,
    running: [],
    ...overrides,
  };
}

/** A session snapshot for tests: one chat "chat", no panes. */
export function sessionSnapshot(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    sessionId: "session-1",
    user: { id: "user-1" },
    chats: [{ id: "chat", title: "Chat", messages: "compose", context: true }],
    panes: [],
    conversations: [],
    current: null,
    model: "offline",
    ...overrides,
  };
}

/** An approval request for tests. */
export function approvalRequest(
  approvalId: string,
  overrides: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  return {
    approvalId,
    instanceId: "host-1",
    chatId: "chat",
    title: "Notes",
    source: "notes",
    tool: "delete-note",
    arguments: { id: 7 },
    annotations: { destructiveHint: true },
    createdAt: 1,
    ...overrides,
  };
}
