// Argument checks of McpConnection, each with a message that says what is wrong and what to pass
// instead. Each runs before anything is started or sent.
import { McpOwnerMismatchError, McpStartupError, McpValidationError } from "./connection-errors";

/**
 * Who a connection belongs to: an opaque record the host assigns (it authenticates and picks
 * the ids). A handle refuses callers whose record differs in any field.
 */
export interface McpOwner {
  /** The owner's identity (an agent, a chat, a user). */
  id: string;
  /** The session it acts in, if the host distinguishes sessions. */
  session?: string;
  /** The run context, if the host distinguishes runs. */
  run?: string;
}

/** What `discover()` can list. */
export type McpCatalogueKind = "tools" | "resources" | "resource_templates" | "prompts";

/** The JSON-RPC method behind each {@link McpCatalogueKind}. */
export const catalogueOperations: Readonly<Record<McpCatalogueKind, string>> = Object.freeze({
  tools: "tools/list",
  resources: "resources/list",
  resource_templates: "resources/templates/list",
  prompts: "prompts/list",
});

const ownerMessage = "`owner` must be an owner record with an id.";

/**
 * Checks an owner record and returns a frozen copy.
 *
 * @param value - what the caller passed.
 * @returns the owner, frozen.
 * @throws McpValidationError "`owner` must be an owner record with an id."
 */
export function validateOwner(value: unknown): Readonly<McpOwner> {
  if (!isPlainObject(value)) throw new McpValidationError(ownerMessage);
  const { id, session, run } = value;
  if (typeof id !== "string" || id === "") throw new McpValidationError(ownerMessage);
  if (session !== undefined && typeof session !== "string")
    throw new McpValidationError(ownerMessage);
  if (run !== undefined && typeof run !== "string") throw new McpValidationError(ownerMessage);
  const owner: McpOwner = { id };
  if (session !== undefined) owner.session = session;
  if (run !== undefined) owner.run = run;
  return Object.freeze(owner);
}

/**
 * Whether two owner records are the same owner (every field equal).
 *
 * @returns true when they match.
 */
export function sameOwner(first: Readonly<McpOwner>, second: Readonly<McpOwner>): boolean {
  return first.id === second.id && first.session === second.session && first.run === second.run;
}

/**
 * Checks that a call names the connection's owner as its caller.
 *
 * @throws McpValidationError for a malformed owner; McpOwnerMismatchError for another owner.
 */
export function assertCaller(
  options: { owner?: unknown } | undefined,
  owner: Readonly<McpOwner>,
): void {
  if (!sameOwner(validateOwner(options?.owner), owner)) throw new McpOwnerMismatchError();
}

/**
 * Checks an allowlist: absent, or an array of unique non-empty strings.
 *
 * @param name - the option's name, for the message.
 * @param value - what the caller passed.
 * @returns a frozen copy (empty when absent).
 * @throws McpValidationError "`<name>` must contain unique, non-empty strings."
 */
export function validateAllowlist(name: string, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  const message = `\`${name}\` must contain unique, non-empty strings.`;
  if (!Array.isArray(value)) throw new McpValidationError(message);
  const seen = new Set<string>();
  for (const item of value as unknown[]) {
    if (typeof item !== "string" || item === "" || seen.has(item))
      throw new McpValidationError(message);
    seen.add(item);
  }
  return Object.freeze([...seen]);
}

/**
 * Checks a duration in seconds: absent, or a finite number above zero.
 *
 * @param name - the option's name, for the message.
 * @param value - what the caller passed.
 * @returns the number, or undefined when absent.
 * @throws McpValidationError "`<name>` must be positive and finite."
 */
export function validateSeconds(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new McpValidationError(`\`${name}\` must be positive and finite.`);
  }
  return value;
}

/**
 * Checks the capability tools' name prefix.
 *
 * @returns the prefix.
 * @throws McpValidationError when it is not 1 to 50 letters, digits, underscores or hyphens.
 */
export function validatePrefix(value: unknown): string {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,50}$/.test(value)) {
    throw new McpValidationError(
      "`prefix` must contain 1 to 50 letters, digits, underscores or hyphens.",
    );
  }
  return value;
}

/**
 * Checks a catalogue kind and cursor.
 *
 * @returns the kind and the cursor (undefined for none; empty and blank strings are kept).
 * @throws McpValidationError for an unknown kind or a cursor that is not a string or null.
 */
export function validateDiscovery(
  kind: unknown,
  cursor: unknown,
): { kind: McpCatalogueKind; cursor: string | undefined } {
  if (typeof kind !== "string" || !Object.hasOwn(catalogueOperations, kind)) {
    throw new McpValidationError(
      "`kind` must be one of tools, resources, resource_templates, prompts.",
    );
  }
  if (cursor !== undefined && cursor !== null && typeof cursor !== "string") {
    throw new McpValidationError("`cursor` must be a string or null.");
  }
  return { kind: kind as McpCatalogueKind, cursor: cursor ?? undefined };
}

/**
 * Checks prompt arguments: absent (sent as `{}`), or an object of named string values.
 *
 * @returns a copy to send.
 * @throws McpValidationError "Prompt arguments must be named, non-missing strings."
 */
export function validatePromptArguments(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  const message = "Prompt arguments must be named, non-missing strings.";
  if (!isPlainObject(value)) throw new McpValidationError(message);
  const result: Record<string, string> = {};
  for (const [name, argument] of Object.entries(value)) {
    if (name === "" || typeof argument !== "string") throw new McpValidationError(message);
    result[name] = argument;
  }
  return result;
}

/**
 * Checks tool-call arguments and keeps only the ones supplied (an `undefined` value counts as
 * not supplied, so it is not sent).
 *
 * @returns the arguments to send.
 * @throws McpValidationError when they are not an object.
 */
export function suppliedToolArguments(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isPlainObject(value))
    throw new McpValidationError("Tool arguments must be an object of named values.");
  return Object.fromEntries(Object.entries(value).filter(([, argument]) => argument !== undefined));
}

const hintNames = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * Checks a tool descriptor's annotations: absent, or an object whose hints are booleans and
 * whose title, if any, is a non-empty string.
 *
 * @param tool - the tool's name, for the message.
 * @param annotations - the descriptor's `annotations`.
 * @throws McpStartupError when they are malformed.
 */
export function validateToolAnnotations(tool: string, annotations: unknown): void {
  if (annotations === undefined) return;
  const malformed = (): McpStartupError =>
    new McpStartupError(
      `The MCP server supplied invalid annotations for tool "${tool}": hints must be true or false, and a title a non-empty string.`,
    );
  if (!isPlainObject(annotations)) throw malformed();
  for (const hint of hintNames) {
    if (annotations[hint] !== undefined && typeof annotations[hint] !== "boolean")
      throw malformed();
  }
  const title = annotations["title"];
  if (title !== undefined && (typeof title !== "string" || title === "")) throw malformed();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
