// Test support: the four AI SDK 6 models that reach the stand-in, and a reader that collects
// what `streamText` emits (including a throw out of `fullStream`, which some faults cause).
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel, TextStreamPart, ToolSet } from "ai";
import type { ProviderStandIn } from "../src/index";

/** The provider adapters under test, by a short name. */
export type ProviderName = "responses" | "chat" | "compatible" | "anthropic";

/** Every provider adapter, in table order. */
export const providerNames: readonly ProviderName[] = [
  "responses",
  "chat",
  "compatible",
  "anthropic",
];

/** @returns the AI SDK model of this adapter pointed at the stand-in. */
export function modelFor(
  provider: ProviderName,
  standIn: ProviderStandIn,
  apiKey: string = standIn.apiKey,
): LanguageModel {
  switch (provider) {
    case "responses":
      return createOpenAI({ baseURL: standIn.openaiBaseURL, apiKey }).responses("gpt-4.1");
    case "chat":
      return createOpenAI({ baseURL: standIn.openaiBaseURL, apiKey }).chat("gpt-4.1");
    case "compatible":
      return createOpenAICompatible({
        name: "compatible",
        baseURL: standIn.openaiBaseURL,
        apiKey,
        includeUsage: true,
      }).chatModel("gpt-4.1");
    case "anthropic":
      return createAnthropic({ baseURL: standIn.anthropicBaseURL, apiKey })("claude-sonnet-4-5");
  }
}

/** What one `streamText` run emitted. */
export interface CollectedRun<Tools extends ToolSet = ToolSet> {
  readonly parts: readonly TextStreamPart<Tools>[];
  /** What iterating `fullStream` threw, if it threw. */
  readonly thrown: unknown;
}

/** Reads a whole `fullStream`, keeping a throw instead of rethrowing it. */
export async function collect<Tools extends ToolSet>(
  stream: AsyncIterable<TextStreamPart<Tools>>,
): Promise<CollectedRun<Tools>> {
  const parts: TextStreamPart<Tools>[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { parts, thrown: error };
  }
  return { parts, thrown: undefined };
}

/** @returns the parts of one type. */
export function partsOf<Tools extends ToolSet, Type extends TextStreamPart<Tools>["type"]>(
  run: CollectedRun<Tools>,
  type: Type,
): Extract<TextStreamPart<Tools>, { type: Type }>[] {
  return run.parts.filter(
    (part): part is Extract<TextStreamPart<Tools>, { type: Type }> => part.type === type,
  );
}

/** @returns the text the run streamed. */
export function textOf<Tools extends ToolSet>(run: CollectedRun<Tools>): string {
  return run.parts.map((part) => (part.type === "text-delta" ? part.text : "")).join("");
}
