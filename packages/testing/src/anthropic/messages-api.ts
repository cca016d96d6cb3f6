import type { ProviderApi } from "../provider-api";
import { wireIds } from "../wire-ids";
import {
  anthropicFaultAnswer,
  anthropicUnparsableBody,
  checkAnthropicAuth,
} from "./anthropic-errors";
import { AnthropicPromptCache } from "./messages-prompt-cache";
import { renderMessage } from "./messages-reply";
import { messagesView, validateMessages } from "./messages-request";

/**
 * The Anthropic Messages API (`POST /v1/messages`), which `createAnthropic()` speaks, with
 * prompt caching (see {@link AnthropicPromptCache}).
 *
 * @param pieceSize how many characters each streamed piece of text or arguments holds at most.
 * @param minimumCacheTokens the shortest prefix the prompt cache keeps.
 */
export function createMessagesApi(pieceSize: number, minimumCacheTokens: number): ProviderApi {
  const cache = new AnthropicPromptCache(minimumCacheTokens);
  return {
    name: "messages",
    path: "/v1/messages",
    requestIdHeader: "request-id",
    newRequestId: wireIds.anthropicRequest,
    newToolCallId: wireIds.anthropicToolUse,
    checkAuth: checkAnthropicAuth,
    view: messagesView,
    validate: validateMessages,
    accountInput: (body) => cache.account(body),
    render: (reply, view) => renderMessage(reply, view.model, pieceSize),
    faultAnswer: (fault) => anthropicFaultAnswer(fault),
    unparsableBody: anthropicUnparsableBody,
  };
}
