// Building blocks the other records share: ids, JSON objects, MCP content blocks and tool definitions.
import { z } from "zod";
import { limits } from "./limits";

/** An id of a conversation, chat, card or approval: letters, digits and `_ . : -`. */
export const idSchema = z
  .string()
  .min(1)
  .max(limits.maxIdChars)
  .regex(/^[A-Za-z0-9_.:-]+$/, "must contain only letters, digits, and _ . : -");

/** A JSON object (a tool's arguments, an MCP result). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** An MCP content block; the server checks the kinds it acts on. */
export const contentBlockSchema = z.looseObject({ type: z.string() });

/** An MCP content block. */
export type ContentBlock = z.infer<typeof contentBlockSchema>;

/** MCP tool annotations, as a server declares them. */
export const toolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** MCP tool annotations. */
export type ToolAnnotations = z.infer<typeof toolAnnotationsSchema>;

/** A tool's definition as the browser sees it (for `toolInfo` and the approval dialog). */
export const toolInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: jsonObjectSchema,
  annotations: toolAnnotationsSchema.optional(),
  _meta: jsonObjectSchema.optional(),
});

/** A tool's definition as the browser sees it. */
export type ToolInfo = z.infer<typeof toolInfoSchema>;
