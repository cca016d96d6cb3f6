import type { HostError } from "../host-error";
import type { LiveCard } from "../session/card-registry";
import type { SessionContext } from "../session/session-context";
import { pageError } from "./page-errors";
import type { PageRequestKind } from "../session/session-services";

/**
 * Spends one page request of a card from its card's, source's and session's budgets.
 *
 * @returns undefined when it may go on; else the `rate_limited` error (retryable) naming which
 *   apps were slowed down.
 */
export function takePageRequest(
  context: SessionContext,
  card: LiveCard,
  kind: PageRequestKind,
): HostError | undefined {
  const decision = context.services.pageLimits.take(kind, {
    userId: context.user.id,
    sessionId: context.id,
    source: card.descriptor.source,
    instanceId: card.descriptor.instanceId,
  });
  if (decision.ok) return undefined;
  return pageError(decision.message, "internalError", "rate_limited", { retryable: true });
}
