// The checks a call made in a card's name passes before it reaches the card's server: the tool
// is visible to apps, and the card's hook chain (the operator's `onAppCall`, which may ask the
// person) allows it. A page's own `tools/call` passes them (`page-call-gate.ts`), and so does the
// model's call in a turn that an app's message started (`turns/app-turn-check.ts`).
import { toolDefinition, isVisibleTo } from "../sources/tool-metadata";
import { cardChatKey } from "../session/card-chat-key";
import type { LiveCard } from "../session/card-registry";
import type { SessionContext } from "../session/session-context";
import type { SourceTool } from "../sources/source";
import { runAppCallChain, type AppCallVerdict } from "../gate/app-call-gate";
import type { ApprovalOutcome } from "../gate/approval-types";

/**
 * The sentence for a tool the card's app may not call (not on its server, or not visible to apps).
 *
 * @param name - the tool's name as the app (or the model) named it.
 */
export function notCallableByApp(name: string): string {
  return `The app can't call the tool "${name}".`;
}

/**
 * Checks one call in a card's name: the tool must be one of the card's own source's tools
 * (`tool`, looked up there by the caller; undefined when it has none of that name) and visible to
 * apps, then the card's hook chain must allow it; a hook may ask the person, whose answer goes to
 * `onApproval`.
 *
 * @returns the verdict, a refusal with the sentence the caller is told. Never rejects.
 */
export async function checkCardCall(
  context: SessionContext,
  card: LiveCard,
  call: { name: string; tool: SourceTool | undefined; arguments: Record<string, unknown> },
  onApproval: (outcome: ApprovalOutcome) => void,
): Promise<AppCallVerdict> {
  const { name, tool, arguments: args } = call;
  if (!tool || !isVisibleTo(tool, "app")) return { allowed: false, reason: notCallableByApp(name) };
  const { descriptor } = card;
  return runAppCallChain(
    card.chain,
    {
      name,
      arguments: args,
      tool: toolDefinition(tool),
      instanceId: descriptor.instanceId,
      kind: descriptor.kind,
      source: descriptor.source,
      chat: chatOfCard(context, card),
      title: descriptor.title,
      session: { id: context.id, user: { ...context.user } },
      ask: (question) =>
        context.broker.ask({
          conversationId: descriptor.conversationId,
          chatId: descriptor.chatId,
          instanceId: descriptor.instanceId,
          source: descriptor.source,
          tool: name,
          title: descriptor.title,
          arguments: args,
          annotations: tool.annotations,
          question: question ?? null,
          onOutcome: onApproval,
        }),
    },
    {
      warn: (message) => context.logger.warn({ card: descriptor.instanceId, tool: name }, message),
    },
  );
}

/** The chat a hook is told the card belongs to: its owner if registered here, else the only chat. */
function chatOfCard(context: SessionContext, card: LiveCard): string | null {
  const { chatId, kind } = card.descriptor;
  if (chatId !== null && context.chats.has(chatId)) return chatId;
  return kind === "card" ? cardChatKey(null, [...context.chats.keys()]) : null;
}
