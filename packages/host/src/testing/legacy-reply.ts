// One reply as an older mcp-chat-host stored and exported it (a call as `tool-call`, its card and
// its `tool-result`), and the same reply in today's shape (one `tool` part per call), for the
// tests of the schema step and of importing an old export file.
import type { MessagePart } from "../store/host-store";

/**
 * The old parts: an answered call that opened a card, a refused call, a call that failed, a
 * call whose reply ended before its result, then text.
 */
export const legacyReplyParts = [
  { type: "text", text: "Let me show you." },
  {
    type: "tool-call",
    toolCallId: "call-1",
    name: "show-map",
    source: "maps",
    modelName: "maps__show-map",
    arguments: { city: "Lyon" },
  },
  { type: "card", instanceId: "host-map", toolCallId: "call-1" },
  {
    type: "tool-result",
    toolCallId: "call-1",
    name: "show-map",
    modelName: "maps__show-map",
    value: { zoom: 12 },
    isError: false,
  },
  { type: "tool-call", toolCallId: "call-2", name: "pin-place", arguments: {} },
  {
    type: "tool-result",
    toolCallId: "call-2",
    name: "pin-place",
    value: "Tool call rejected. Not now.",
    isError: true,
  },
  { type: "tool-call", toolCallId: "call-3", name: "geocode", arguments: { q: "x" } },
  {
    type: "tool-result",
    toolCallId: "call-3",
    name: "geocode",
    value: "The service is down.",
    isError: true,
  },
  { type: "tool-call", toolCallId: "call-4", name: "slow", arguments: {} },
  { type: "text", text: "Here it is." },
];

/** {@link legacyReplyParts} in today's shape: a call without a result stays `input-available`. */
export const upgradedReplyParts: MessagePart[] = [
  { type: "text", text: "Let me show you." },
  {
    type: "tool",
    toolCallId: "call-1",
    name: "show-map",
    source: "maps",
    modelName: "maps__show-map",
    state: "output-available",
    input: { city: "Lyon" },
    output: { zoom: 12 },
    instanceId: "host-map",
  },
  {
    type: "tool",
    toolCallId: "call-2",
    name: "pin-place",
    state: "output-denied",
    input: {},
    errorText: "Not now.",
  },
  {
    type: "tool",
    toolCallId: "call-3",
    name: "geocode",
    state: "output-error",
    input: { q: "x" },
    errorText: "The service is down.",
  },
  { type: "tool", toolCallId: "call-4", name: "slow", state: "input-available", input: {} },
  { type: "text", text: "Here it is." },
];
