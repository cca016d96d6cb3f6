import type { ProviderApi } from "../provider-api";
import { wireIds } from "../wire-ids";
import { checkOpenaiAuth, openaiFaultAnswer, openaiUnparsableBody } from "./openai-errors";
import { OpenaiPromptCache } from "./openai-prompt-cache";
import { renderResponse } from "./responses-reply";
import { responsesInput, responsesView, validateResponses } from "./responses-request";

/**
 * The OpenAI Responses API (`POST /v1/responses`), which `createOpenAI().responses()` speaks. It
 * keeps no items: see {@link validateResponses}.
 *
 * @param pieceSize how many characters each streamed piece of text or arguments holds at most.
 */
export function createResponsesApi(pieceSize: number): ProviderApi {
  const cache = new OpenaiPromptCache();
  return {
    name: "responses",
    path: "/v1/responses",
    requestIdHeader: "x-request-id",
    newRequestId: wireIds.openaiRequest,
    newToolCallId: wireIds.openaiToolCall,
    checkAuth: checkOpenaiAuth,
    view: responsesView,
    validate: validateResponses,
    accountInput: (body) =>
      cache.account(
        [
          JSON.stringify(body.instructions ?? ""),
          JSON.stringify(body.tools ?? []),
          ...responsesInput(body).map((item) => JSON.stringify(item)),
        ].join("\n"),
      ),
    render: (reply, view, body) => renderResponse(reply, body, view.model, pieceSize),
    faultAnswer: (fault, view) => openaiFaultAnswer(fault, view.model),
    unparsableBody: openaiUnparsableBody,
  };
}
