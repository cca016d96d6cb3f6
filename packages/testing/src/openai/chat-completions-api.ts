import type { ProviderApi } from "../provider-api";
import { asArray, asRecord } from "../request-view";
import { wireIds } from "../wire-ids";
import { renderChatCompletion } from "./chat-completions-reply";
import { chatCompletionsView, validateChatCompletions } from "./chat-completions-request";
import { checkOpenaiAuth, openaiFaultAnswer, openaiUnparsableBody } from "./openai-errors";
import { OpenaiPromptCache } from "./openai-prompt-cache";

/**
 * The OpenAI Chat Completions API (`POST /v1/chat/completions`), which `createOpenAI().chat()`
 * and `@ai-sdk/openai-compatible` both speak.
 *
 * @param pieceSize how many characters each streamed piece of text or arguments holds at most.
 */
export function createChatCompletionsApi(pieceSize: number): ProviderApi {
  const cache = new OpenaiPromptCache();
  return {
    name: "chat-completions",
    path: "/v1/chat/completions",
    requestIdHeader: "x-request-id",
    newRequestId: wireIds.openaiRequest,
    newToolCallId: wireIds.openaiToolCall,
    checkAuth: checkOpenaiAuth,
    view: chatCompletionsView,
    validate: validateChatCompletions,
    accountInput: (body) =>
      cache.account(
        [
          JSON.stringify(body.tools ?? []),
          ...asArray(body.messages).map((m) => JSON.stringify(m)),
        ].join("\n"),
      ),
    render: (reply, view, body) =>
      renderChatCompletion(reply, {
        model: view.model,
        includeUsage: asRecord(body.stream_options)?.include_usage === true,
        pieceSize,
      }),
    faultAnswer: (fault, view) => openaiFaultAnswer(fault, view.model),
    unparsableBody: openaiUnparsableBody,
  };
}
