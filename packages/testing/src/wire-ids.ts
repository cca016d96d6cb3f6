import { randomBytes } from "node:crypto";

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomAlphanumerics(length: number): string {
  const bytes = randomBytes(length);
  let text = "";
  for (const byte of bytes) text += alphanumerics[byte % alphanumerics.length];
  return text;
}

function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}

/** Identifiers shaped like the ones each real API hands out. */
export const wireIds = {
  /** `chatcmpl-` and 29 letters or digits. */
  chatCompletion: (): string => `chatcmpl-${randomAlphanumerics(29)}`,
  /** `call_` and 24 letters or digits (Chat Completions and Responses `call_id`). */
  openaiToolCall: (): string => `call_${randomAlphanumerics(24)}`,
  /** `fp_` and 10 hex digits. */
  systemFingerprint: (): string => `fp_${randomHex(10)}`,
  /** Responses API object ids: `resp_`, `msg_`, `fc_` and 48 hex digits. */
  response: (): string => `resp_${randomHex(48)}`,
  responseMessage: (): string => `msg_${randomHex(48)}`,
  responseFunctionCall: (): string => `fc_${randomHex(48)}`,
  /** `req_` and 32 hex digits (OpenAI `x-request-id`). */
  openaiRequest: (): string => `req_${randomHex(32)}`,
  /** `msg_01` and 22 letters or digits. */
  anthropicMessage: (): string => `msg_01${randomAlphanumerics(22)}`,
  /** `toolu_01` and 22 letters or digits. */
  anthropicToolUse: (): string => `toolu_01${randomAlphanumerics(22)}`,
  /** `req_011C` and 20 letters or digits (Anthropic `request-id`). */
  anthropicRequest: (): string => `req_011C${randomAlphanumerics(20)}`,
};
