// Whether the model may call a tool, judged only from the annotations its server declares.
// Hints are inputs to a cautious check; they never grant more than the permissions allow.

/** The MCP tool annotation hints (as a server sends them; any may be missing). */
export interface ToolAnnotationHints {
  // `| undefined` so that the MCP SDK's annotation type fits as it is.
  title?: string | undefined;
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
}

/** Every hint resolved to a value. */
export interface EffectiveAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * What the person or operator allows tools to do.
 * - `web`: tools that may reach the outside world (open world) may run.
 * - `write`: tools that may destroy or overwrite data may run.
 * - `mode`: `"default"` applies `web` and `write`; `"plan"` and `"readonly"` also require every
 *   tool to be annotated read-only (and still need `web` for open-world tools).
 */
export interface ToolPermissions {
  web: boolean;
  write: boolean;
  mode?: "default" | "plan" | "readonly";
}

/**
 * The permissions used when none are given: no web access and no writes, default mode. With
 * these, a tool that has no annotations is refused (it may be destructive and may reach the
 * network); a tool annotated read-only and closed-world runs.
 */
export const defaultToolPermissions: Readonly<ToolPermissions> = Object.freeze({
  web: false,
  write: false,
  mode: "default",
});

/**
 * The tool being judged. Only `annotations` count: `name` is accepted so a tool handle can be
 * passed as it is, but a name never earns a tool anything (every tool this host runs comes from
 * an MCP source, so there are no built-ins to impersonate).
 */
export interface PermissionCheckedTool {
  name?: string;
  annotations?: ToolAnnotationHints | null | undefined;
}

/** The verdict of {@link checkToolPermission}; `reason` is a sentence for the model and logs. */
export type ToolPermissionDecision = { allowed: true } | { allowed: false; reason: string };

/** The refusal reasons, exact, so callers and tests can recognise them. */
export const permissionReasons = {
  destructive: "Tool is marked as destructive and write operations are disabled",
  openWorld: "Tool can access external resources but web access is disabled",
  planUnannotated: "Tool has no annotations and plan mode allows only tools marked read-only",
  planDestructive: "Tool is marked as destructive and plan mode allows only read-only tools",
  planNotReadOnly: "Tool is not marked as read-only and plan mode allows only read-only tools",
  readonlyUnannotated:
    "Tool has no annotations and read-only mode allows only tools marked read-only",
  readonlyDestructive:
    "Tool is marked as destructive and read-only mode allows only read-only tools",
  readonlyNotReadOnly:
    "Tool is not marked as read-only and read-only mode allows only read-only tools",
} as const;

const hintNames = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * Resolves a tool's hints with the cautious defaults: not read-only, destructive, not idempotent,
 * open world. A tool marked read-only that says nothing about being destructive is taken as not
 * destructive. A hint that is not a boolean counts as missing.
 *
 * @param annotations - the hints the server declared, if any.
 * @returns every hint with a value.
 */
export function effectiveAnnotations(
  annotations?: ToolAnnotationHints | null,
): EffectiveAnnotations {
  const readOnly = booleanHint(annotations, "readOnlyHint");
  const destructive = booleanHint(annotations, "destructiveHint");
  return {
    readOnlyHint: readOnly ?? false,
    destructiveHint: destructive ?? readOnly !== true,
    idempotentHint: booleanHint(annotations, "idempotentHint") ?? false,
    openWorldHint: booleanHint(annotations, "openWorldHint") ?? true,
  };
}

/**
 * Decides whether a tool may run under the given permissions, from its annotations alone. A tool
 * named like a built-in (`read_file`) is judged exactly like any other.
 *
 * Default mode: destructive without `write` is refused, then open world without `web`.
 * Plan and read-only modes, in order: no hints at all, destructive, open world without `web`,
 * and anything not marked read-only are refused.
 *
 * @param tool - the tool's annotations (other fields are ignored).
 * @param permissions - what is allowed; {@link defaultToolPermissions} when omitted.
 * @returns `{ allowed: true }`, or `{ allowed: false, reason }` with a reason from
 *   {@link permissionReasons}.
 */
export function checkToolPermission(
  tool: PermissionCheckedTool,
  permissions: ToolPermissions = defaultToolPermissions,
): ToolPermissionDecision {
  const hints = effectiveAnnotations(tool.annotations);
  const mode = permissions.mode ?? "default";
  if (mode === "default") {
    if (hints.destructiveHint && !permissions.write) return deny(permissionReasons.destructive);
    if (hints.openWorldHint && !permissions.web) return deny(permissionReasons.openWorld);
    return { allowed: true };
  }
  // Plan and read-only modes change nothing, whatever `write` says.
  const plan = mode === "plan";
  if (!hasAnyHint(tool.annotations)) {
    return deny(plan ? permissionReasons.planUnannotated : permissionReasons.readonlyUnannotated);
  }
  if (hints.destructiveHint) {
    return deny(plan ? permissionReasons.planDestructive : permissionReasons.readonlyDestructive);
  }
  if (hints.openWorldHint && !permissions.web) return deny(permissionReasons.openWorld);
  if (!hints.readOnlyHint) {
    return deny(plan ? permissionReasons.planNotReadOnly : permissionReasons.readonlyNotReadOnly);
  }
  return { allowed: true };
}

function deny(reason: string): ToolPermissionDecision {
  return { allowed: false, reason };
}

function booleanHint(
  annotations: ToolAnnotationHints | null | undefined,
  name: (typeof hintNames)[number],
): boolean | undefined {
  const value: unknown = annotations?.[name];
  return typeof value === "boolean" ? value : undefined;
}

function hasAnyHint(annotations: ToolAnnotationHints | null | undefined): boolean {
  return hintNames.some((name) => booleanHint(annotations, name) !== undefined);
}
