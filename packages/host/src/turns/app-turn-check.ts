// A turn an app's message started (`submit` mode) speaks for the app, not the person: each tool
// call the model makes in it passes the checks a call of that app's own page would pass.
import { checkCardCall, notCallableByApp } from "../page-calls/card-call-check";
import type { ToolRequest, ToolRequestVerdict } from "../model/tool-checks";
import type { MessageFromApp } from "../store/host-store";
import type { TurnDeps } from "./turn";

/**
 * The check of the model's tool calls in a turn that the app `fromApp` started: the app's card
 * must still be open, the tool must be on the card's own source and visible to apps, and the
 * card's hook chain (the operator's `onAppCall`, which may ask the person) must allow it. A
 * refusal is logged and audited, and the model is told why.
 *
 * @param chatKey - the chat the turn runs in.
 * @returns a check for the runner's `onToolRequest`: `true` or a refusal's sentence.
 */
export function appTurnCheck(
  deps: TurnDeps,
  chatKey: string,
  fromApp: MessageFromApp,
): (request: ToolRequest) => Promise<ToolRequestVerdict> {
  const { context } = deps;
  return async (request) => {
    const listed = deps.tools.byModelName(chatKey, request.name);
    const name = listed?.tool.name ?? request.name;
    const refuse = (reason: string): string => {
      const written = `This reply answers a message the app "${fromApp.title}" wrote, so its tool calls are checked as the app's own. ${reason}`;
      context.logger.info(
        { card: fromApp.instanceId, tool: name, source: listed?.source },
        written,
      );
      context.services.audit.record({
        userId: context.user.id,
        sessionId: context.id,
        conversationId: card?.descriptor.conversationId ?? null,
        instanceId: fromApp.instanceId,
        source: listed?.source ?? fromApp.source,
        tool: name,
        verdict: "refused",
        durationMs: 0,
        reason: written,
      });
      return written;
    };
    const card = context.cards.get(fromApp.instanceId);
    if (!card || card.disposed) return refuse("The app's card is closed, so no call is made.");
    if (listed === undefined || listed.source !== card.descriptor.source) {
      return refuse(notCallableByApp(name));
    }
    const verdict = await checkCardCall(
      context,
      card,
      { name, tool: listed.tool, arguments: request.arguments },
      () => undefined,
    );
    return verdict.allowed ? true : refuse(verdict.reason);
  };
}
