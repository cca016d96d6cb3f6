import { z } from "zod";
import type {
  ApprovalRecord,
  CardRecord,
  ConversationDocument,
  ConversationRecord,
  MessageRecord,
} from "./host-store";
import { upgradeMessageParts } from "./legacy-message-parts";
import { StoreError } from "./store-error";
import { toolPartStates } from "./store-records";

/** The `format` field of every exported conversation. */
const conversationDocumentFormat = "mcp-chat-host.conversation";

/**
 * The `version` of the document this code writes. Version 1 (a tool call as `tool-call`,
 * `tool-result` and `card` parts) is still read: its parts are converted on import.
 */
const conversationDocumentVersion = 2;

/** The versions this code reads. */
const readableVersions: readonly unknown[] = [1, conversationDocumentVersion];

const timestamp = z.number().int().nonnegative();
const identifier = z.string().min(1).max(1_000);
const jsonObject = z.record(z.string(), z.json());

const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });

/** The parts of a version 2 message. */
const messagePartSchema = z.discriminatedUnion("type", [
  textPartSchema,
  z.object({
    type: z.literal("tool"),
    toolCallId: identifier,
    name: identifier,
    source: identifier.optional(),
    modelName: identifier.optional(),
    state: z.enum(toolPartStates),
    input: z.json(),
    output: z.json().optional(),
    errorText: z.string().optional(),
    instanceId: identifier.optional(),
  }),
  z.object({ type: z.literal("card"), instanceId: identifier }),
  z.object({
    type: z.literal("resource"),
    source: identifier,
    uri: z.string().min(1).max(2_000),
    name: z.string().optional(),
    mimeType: z.string().optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
  }),
]);

/** The parts of a version 1 message (see `legacy-message-parts.ts`). */
const legacyMessagePartSchema = z.discriminatedUnion("type", [
  textPartSchema,
  z.object({
    type: z.literal("tool-call"),
    toolCallId: identifier,
    name: identifier,
    arguments: z.json(),
    source: identifier.optional(),
    modelName: identifier.optional(),
  }),
  z.object({
    type: z.literal("tool-result"),
    toolCallId: identifier,
    name: identifier,
    value: z.json(),
    isError: z.boolean(),
    modelName: identifier.optional(),
  }),
  z.object({ type: z.literal("card"), instanceId: identifier, toolCallId: identifier.optional() }),
]);

/** A message of the document, with the parts of its version. */
function messageSchemaOf(parts: typeof messagePartSchema | typeof legacyMessagePartSchema) {
  return z.object({
    id: identifier,
    chatId: identifier,
    seq: z.number().int().positive(),
    role: z.enum(["user", "assistant"]),
    parts: z.array(parts),
    status: z.enum(["complete", "streaming", "interrupted", "error", "stopped"]),
    error: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  });
}

const cardSchema = z.object({
  instanceId: identifier,
  chatId: identifier.nullable(),
  kind: z.enum(["card", "pane"]),
  source: identifier,
  tool: identifier,
  arguments: jsonObject,
  result: jsonObject.nullable(),
  cancelled: z.string().optional(),
  title: z.string(),
  checked: z.boolean(),
  messageId: identifier.optional(),
  createdAt: timestamp,
  closedAt: timestamp.optional(),
});

const approvalSchema = z
  .object({
    scope: z.enum(["card", "conversation"]),
    instanceId: identifier.nullable(),
    source: identifier,
    tool: identifier,
    createdAt: timestamp,
  })
  .refine((approval) => (approval.scope === "card") === (approval.instanceId !== null), {
    message: 'An approval of scope "card" names its card; one of scope "conversation" has null',
    path: ["instanceId"],
  });

/**
 * Schema of a conversation document of one version. Besides field types it checks that message
 * ids, message `seq` values and card instance ids are each unique.
 */
function documentSchemaOf(version: 1 | 2) {
  return z
    .object({
      format: z.literal(conversationDocumentFormat),
      version: z.literal(version),
      exportedAt: timestamp,
      conversation: z.object({ title: z.string().trim().min(1).max(1_000), createdAt: timestamp }),
      messages: z.array(
        messageSchemaOf(version === 1 ? legacyMessagePartSchema : messagePartSchema),
      ),
      cards: z.array(cardSchema),
      approvals: z.array(approvalSchema),
    })
    .superRefine((document, context) => {
      reportDuplicates(document.messages, (message) => message.id, "messages", "id", context);
      reportDuplicates(
        document.messages,
        (message) => String(message.seq),
        "messages",
        "seq",
        context,
      );
      reportDuplicates(document.cards, (card) => card.instanceId, "cards", "instanceId", context);
    });
}

function reportDuplicates<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  list: string,
  field: string,
  context: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) {
      context.addIssue({
        code: "custom",
        message: `Duplicate ${field} "${key}"`,
        path: [list, index, field],
      });
    }
    seen.add(key);
  });
}

/**
 * Builds the exported document of a conversation from its records. Record fields that only make
 * sense inside this store (`conversationId`, the owner's user id, the conversation id) are left out.
 * The remembered approvals are written as a record of what the person allowed; an import reads
 * them but never keeps them (a file can't answer for the person).
 *
 * @returns the document, ready for `JSON.stringify`.
 */
export function buildConversationDocument(
  conversation: ConversationRecord,
  messages: readonly MessageRecord[],
  cards: readonly CardRecord[],
  approvals: readonly ApprovalRecord[],
  exportedAt: number,
): ConversationDocument {
  return {
    format: conversationDocumentFormat,
    version: conversationDocumentVersion,
    exportedAt,
    conversation: { title: conversation.title, createdAt: conversation.createdAt },
    messages: messages.map(({ conversationId: _conversationId, ...message }) => message),
    cards: cards.map(({ conversationId: _conversationId, ...card }) => card),
    approvals: approvals.map(({ conversationId: _conversationId, ...approval }) => approval),
  };
}

/**
 * Validates a conversation document.
 *
 * @param input - the parsed document, or its JSON text.
 * @returns the validated document (unknown fields dropped).
 * @throws StoreError `invalid_import` whose `path` (e.g. `messages[2].role`, or `""` for the whole
 *   document) and message name the first problem.
 */
export function parseConversationDocument(input: unknown): ConversationDocument {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input) as unknown;
    } catch (error) {
      throw new StoreError(
        "invalid_import",
        "The file is not JSON, so it cannot be a conversation export. Nothing was imported; choose a file exported by mcp-chat-host.",
        { path: "", cause: error },
      );
    }
  }
  if (!isRecord(value) || value.format !== conversationDocumentFormat) {
    throw new StoreError(
      "invalid_import",
      `The file is not an mcp-chat-host conversation export (its "format" is not "${conversationDocumentFormat}"). Nothing was imported; choose a file exported by mcp-chat-host.`,
      { path: "format" },
    );
  }
  if (!readableVersions.includes(value.version)) {
    throw new StoreError(
      "invalid_import",
      `The conversation export has version ${JSON.stringify(value.version) ?? "none"}; this mcp-chat-host reads versions 1 and ${conversationDocumentVersion}. Nothing was imported; upgrade mcp-chat-host or export the conversation again.`,
      { path: "version" },
    );
  }
  const version = value.version === 1 ? 1 : 2;
  const parsed = documentSchemaOf(version).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined ? "" : formatIssuePath(issue.path);
    const where = path === "" ? "" : ` at "${path}"`;
    throw new StoreError(
      "invalid_import",
      `The conversation export is not valid${where}: ${issue?.message ?? "unknown problem"}. Nothing was imported; fix that field or export the conversation again.`,
      { path, cause: parsed.error },
    );
  }
  // The schema mirrors ConversationDocument; zod types optional keys as `T | undefined`, which
  // exactOptionalPropertyTypes does not equate with an absent key, so the cast is the seam.
  const document = parsed.data as unknown as ConversationDocument;
  if (version === 1) {
    // A version 1 file keeps a tool call in up to three parts: read them as one.
    document.version = conversationDocumentVersion;
    for (const message of document.messages) message.parts = upgradeMessageParts(message.parts);
  }
  return document;
}

/**
 * Formats a zod issue path as `messages[2].parts[0].type`.
 *
 * @returns the path, or `""` for the root.
 */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
