// The person's MCP servers as the browser shows them: each server's state (connected, needs
// sign-in, failed), the questions a server asks the person (elicitation), and the prompts and
// resources a server offers the composer.
import { z } from "zod";
import { idSchema, jsonObjectSchema } from "./common-records";

/**
 * Where a server stands for this person:
 * - `connected`: its tools are available;
 * - `needs-sign-in`: it asks for authorization and the person has not connected it (or the
 *   connection lapsed: a refresh failed, the grant was revoked);
 * - `connecting`: the person started signing in and has not finished;
 * - `failed`: it could not be reached or refused the connection (`reason` says why);
 * - `idle`: not opened yet in this session (it opens when a chat first needs it).
 */
export const serverStates = ["connected", "needs-sign-in", "connecting", "failed", "idle"] as const;

/** Where a server stands for this person. */
export type ServerState = (typeof serverStates)[number];

/** One MCP server of the person's, as the servers panel lists it. */
export const serverStatusSchema = z.object({
  /** The server's name (its key in the configuration; a tool's `source`). */
  name: z.string(),
  /** Whether it is reached over HTTP (a remote server) rather than started here. */
  remote: z.boolean(),
  /** Whether the person signs in to it with their own account (OAuth). */
  signIn: z.boolean(),
  state: z.enum(serverStates),
  /** For `failed` and `needs-sign-in`: one sentence saying what happened and what to do. */
  reason: z.string().optional(),
  /** The scopes the person granted, when connected with OAuth. */
  scopes: z.array(z.string()).optional(),
  /** The authorization server the person signed in at (its issuer), when connected with OAuth. */
  issuer: z.string().optional(),
  /** When the connection was made (ms since the epoch), when connected with OAuth. */
  connectedAt: z.number().optional(),
  /** Set for a server the person added themselves (a connector), which they may remove. */
  connector: z.literal(true).optional(),
});

/** One MCP server of the person's, as the servers panel lists it. */
export type ServerStatus = z.infer<typeof serverStatusSchema>;

/** What a person answers to a server's question (as MCP's `ElicitResult.action`). */
export const elicitationActions = ["accept", "decline", "cancel"] as const;

/**
 * A server asks the person something during a call (`elicitation/create`, or a 2026-07-28
 * `inputRequired` round). The host shows it in a dialog naming the server; a view never sees it.
 */
export const elicitationRequestSchema = z.object({
  elicitationId: idSchema,
  /** The server that asks (its name). */
  server: z.string(),
  /** The chat whose call led to the question, when known. */
  chatId: z.string().optional(),
  /** `form`: fill in `requestedSchema`; `url`: open `url` (only if the person agrees). */
  mode: z.enum(["form", "url"]),
  /** The server's text, shown as plain text. */
  message: z.string(),
  /** For `form`: a flat object schema of primitive properties (MCP's restricted JSON Schema). */
  requestedSchema: jsonObjectSchema.optional(),
  /** For `url`: the page the server asks the person to visit. */
  url: z.string().optional(),
  /** When the question is withdrawn if nobody answers (ms since the epoch). */
  expiresAt: z.number(),
});

/** A question a server asks the person. */
export type ElicitationRequest = z.infer<typeof elicitationRequestSchema>;

/** How a question ended: answered (in any tab), timed out, or withdrawn (the call ended). */
export const elicitationOutcomes = ["answered", "timed-out", "withdrawn"] as const;

/** A prompt a chat's server offers, as the composer offers it as a slash command. */
export const chatPromptSchema = z.object({
  /** The server's name. */
  source: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      required: z.boolean().optional(),
    }),
  ),
});

/** A prompt a chat's server offers. */
export type ChatPrompt = z.infer<typeof chatPromptSchema>;

/** A resource a chat's server offers, which the person can attach to a message. */
export const chatResourceSchema = z.object({
  source: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

/** A resource a chat's server offers. */
export type ChatResource = z.infer<typeof chatResourceSchema>;

/** A resource attached to a message the person sends: which server, which URI. */
export const resourceAttachmentSchema = z
  .object({ source: z.string().min(1).max(200), uri: z.string().min(1).max(2_000) })
  .strict();

/** A resource attached to a message. */
export type ResourceAttachment = z.infer<typeof resourceAttachmentSchema>;
