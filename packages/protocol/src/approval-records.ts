// Questions to the person about a card's tool call, and their answers.
import { z } from "zod";
import { jsonObjectSchema, toolAnnotationsSchema } from "./common-records";

/** A question to the person about a card's tool call (`call.ask()`). */
export const approvalRequestSchema = z.object({
  approvalId: z.string(),
  instanceId: z.string(),
  chatId: z.string().nullable(),
  title: z.string(),
  source: z.string(),
  tool: z.string(),
  arguments: jsonObjectSchema,
  annotations: toolAnnotationsSchema.optional(),
  question: z.string().optional(),
  createdAt: z.number(),
});

/** A question to the person about a card's tool call. */
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** The person's answers to an approval request. */
export const approvalDecisions = [
  "allow-once",
  "allow-card",
  "allow-conversation",
  "refuse",
] as const;

/** One of {@link approvalDecisions}. */
export type ApprovalDecision = (typeof approvalDecisions)[number];
