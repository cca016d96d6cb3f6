import type { LiveCard } from "../session/card-registry";
import { capToolResult } from "../sources/capped-result";
import { NOT_RUNNING, pageError } from "./page-errors";
import { pageCallFailure } from "./source-failure";
import { pageRpcCodes } from "@mcp-chat-host/protocol";
import { pageLimitMessage } from "./page-request-limits";
import { takePageRequest } from "./take-page-request";
import { PageRequestFailure } from "../errors/page-request-failure";
import { toWireError } from "../errors/to-wire-error";
import type { Source, SourceTool } from "../sources/source";
import type { SessionContext } from "../session/session-context";
import { measuredToolCall } from "../telemetry/measured-tool-call";
import { inSpan, type SpanHandle } from "../telemetry/spans";
import { checkCardCall } from "./card-call-check";
import type { ApprovalOutcome } from "../gate/approval-types";
import { ElicitationCaller } from "../elicitation/elicitation-routing";

/** What a page reads when its card's tool calls were slowed down. */
export const PAGE_CALL_RATE_MESSAGE = pageLimitMessage("tools", "card", "");

/** What a page reads when its card's resource requests were slowed down. */
export const PAGE_RESOURCES_RATE_MESSAGE = pageLimitMessage("resources", "card", "");

/** How a page call ended, as its audit row says. */
type PageCallVerdict = "allowed" | "refused" | "failed";

/**
 * Where the requests of a card's page are checked before they reach the card's server: the card
 * must be live in this session, within its rate, and (for a tool call) the tool on the card's
 * own source, visible to apps, and allowed by the card's hook chain. Every tool call is audited,
 * refused ones included.
 */
export class PageCallGate {
  constructor(private readonly context: SessionContext) {}

  /**
   * A page's `tools/call`: checked, then passed to the card's source; its result is capped like
   * every tool result.
   *
   * @throws {HostError} with the page's JSON-RPC code and a sentence for the person when the gate
   *   refuses; {@link PageRequestFailure} (mapped by `toWireError`, the page's code kept) when
   *   the source fails.
   */
  callTool(
    instanceId: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return inSpan(
      `execute_tool ${name}`,
      {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        "mcp_chat_host.tool.caller": "page",
      },
      (span) => this.#checkAndCall(instanceId, name, args, span),
    );
  }

  async #checkAndCall(
    instanceId: string,
    name: string,
    args: Record<string, unknown>,
    span: SpanHandle,
  ): Promise<Record<string, unknown>> {
    const context = this.context;
    const card = context.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    span.set({ "mcp_chat_host.tool.source": card.descriptor.source });
    const started = context.services.now();
    // Set when the gate asked the person; the call's audit row says how it was answered.
    let approval: ApprovalOutcome | undefined;
    const audit = (verdict: PageCallVerdict, reason?: string) => {
      span.set({ "mcp_chat_host.outcome": verdict });
      this.#audit(card, name, verdict, started, reason, approval);
    };
    const refusal = takePageRequest(context, card, "tools");
    if (refusal !== undefined) {
      // A throttled call is a page call too; the audit shows the card being slowed down.
      audit("refused", refusal.message);
      throw refusal;
    }
    // A failure to reach the source is the mapping's to word (`errors/to-wire-error.ts`).
    let source: Source;
    let tools: SourceTool[];
    try {
      source = await context.sources.get(card.descriptor.source);
    } catch (error) {
      throw new PageRequestFailure(error, pageRpcCodes.internalError);
    }
    try {
      tools = await source.tools();
    } catch (error) {
      throw pageCallFailure(error, source.key, source.closed, pageRpcCodes.internalError);
    }
    const verdict = await checkCardCall(
      context,
      card,
      { name, tool: tools.find((candidate) => candidate.name === name), arguments: args },
      (outcome) => {
        approval = outcome;
      },
    );
    if (!verdict.allowed) {
      audit("refused", verdict.reason);
      throw pageError(verdict.reason, "invalidParams");
    }
    // The hooks may have taken a while (a question to the person); a card closed meanwhile no
    // longer speaks for anyone.
    if (card.disposed) {
      audit("refused", NOT_RUNNING);
      throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    }
    try {
      const result = capToolResult(
        await measuredToolCall(
          context.services.metrics,
          { source: source.key, tool: name, caller: "page" },
          () => source.callTool(name, args, { caller: this.#caller(card) }),
        ),
        context.services.toolResultLimit,
      );
      audit(result.isError === true ? "failed" : "allowed");
      return result as unknown as Record<string, unknown>;
    } catch (error) {
      const failure = pageCallFailure(error, source.key, source.closed, pageRpcCodes.internalError);
      // The person reads the audit too (`audit:list`): its reason is the page's sentence, and an
      // unexpected failure's detail is in the server log.
      audit("failed", toWireError(failure).message);
      throw failure;
    }
  }

  /**
   * A page's `resources/read`, `resources/list` or `resources/templates/list`: its own source
   * only, within a rate of its own beside its tool calls'.
   */
  async resourceRequest(
    instanceId: string,
    request: { kind: "read"; uri: string } | { kind: "list" | "templates"; cursor?: string },
  ): Promise<Record<string, unknown>> {
    const context = this.context;
    const card = context.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    const refusal = takePageRequest(context, card, "resources");
    if (refusal !== undefined) throw refusal;
    let source: Source;
    try {
      source = await context.sources.get(card.descriptor.source);
    } catch (error) {
      throw new PageRequestFailure(error, pageRpcCodes.internalError);
    }
    try {
      const result =
        request.kind === "read"
          ? await source.readResource(request.uri, { caller: this.#caller(card) })
          : request.kind === "list"
            ? await source.listResources(request.cursor)
            : await source.listResourceTemplates(request.cursor);
      return result as unknown as Record<string, unknown>;
    } catch (error) {
      throw pageCallFailure(error, source.key, source.closed, pageRpcCodes.internalError);
    }
  }

  /** The tag of a card's call: a server's question during it goes to this session. */
  #caller(card: LiveCard): ElicitationCaller {
    return new ElicitationCaller(this.context.elicitations, card.descriptor.chatId ?? undefined);
  }

  /** Queues the audit of a page call (written in batches; see `AuditLog`). */
  #audit(
    card: LiveCard,
    tool: string,
    verdict: PageCallVerdict,
    started: number,
    reason?: string,
    approval?: ApprovalOutcome,
  ): void {
    const context = this.context;
    const durationMs = Math.max(0, context.services.now() - started);
    context.services.metrics.pageCall(card.descriptor.source, verdict, durationMs / 1_000);
    context.services.audit.record({
      userId: context.user.id,
      sessionId: context.id,
      conversationId: card.descriptor.conversationId,
      instanceId: card.descriptor.instanceId,
      source: card.descriptor.source,
      tool,
      verdict,
      durationMs,
      ...(reason === undefined ? {} : { reason }),
      ...(approval === undefined ? {} : { approval: { ...approval } }),
    });
  }
}
