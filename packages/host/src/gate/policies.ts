import type { ToolAnnotations } from "@modelcontextprotocol/client";
import { effectiveAnnotations, type EffectiveAnnotations } from "@mcp-chat-host/connection";
import { z } from "zod";
import type { AppCall, OnAppCall } from "./app-call-gate";

/**
 * True when a tool gives none of the four hints (a `title` alone says nothing about safety).
 *
 * @param annotations - the tool's annotations, if any.
 */
export function isUnannotated(annotations: ToolAnnotations | null | undefined): boolean {
  return (
    annotations?.readOnlyHint === undefined &&
    annotations?.destructiveHint === undefined &&
    annotations?.idempotentHint === undefined &&
    annotations?.openWorldHint === undefined
  );
}

/** Why the annotation policy asks the person. */
export type AskConcern = "unannotated" | "destructive" | "open-world";

/** Options of {@link policies}`.annotations`. */
export interface AnnotationPolicyOptions {
  /** The sentence shown in the dialog; the default names the concern. */
  readonly question?: (call: AppCall, concern: AskConcern) => string;
}

const DEFAULT_QUESTIONS: Readonly<Record<AskConcern, string>> = {
  unannotated: "This tool doesn't say whether it changes anything.",
  destructive: "This tool may change or delete data.",
  "open-world": "This tool may reach services outside this host.",
};

function annotations(options: AnnotationPolicyOptions = {}): OnAppCall {
  const question =
    options.question ?? ((_call: AppCall, concern: AskConcern) => DEFAULT_QUESTIONS[concern]);
  return (call) => {
    const declared = call.tool.annotations;
    if (isUnannotated(declared)) return call.ask(question(call, "unannotated"));
    // Missing hints take the MCP defaults (not read-only, destructive, open-world), as the
    // connection package reads them: one rule for both gates.
    const hints = effectiveAnnotations(declared);
    if (hints.readOnlyHint) return true;
    if (hints.destructiveHint) return call.ask(question(call, "destructive"));
    if (hints.openWorldHint) return call.ask(question(call, "open-world"));
    return true;
  };
}

const verdictSchema = z.enum(["allow", "refuse", "ask"]);

/** One rule of a rule policy: every field given must match; the first matching rule decides. */
export const appCallRuleSchema = z.strictObject({
  /** The source's name. */
  source: z.string().min(1).optional(),
  /** The tool's name. */
  tool: z.string().min(1).optional(),
  /** A hint that must hold, with the MCP defaults filled in (an unannotated tool is destructive). */
  annotation: z.enum(["readOnly", "destructive", "openWorld", "idempotent"]).optional(),
  /** What to do with a matching call. */
  verdict: verdictSchema,
  /** For `refuse`, the text the page sees; for `ask`, the sentence shown in the dialog. */
  reason: z.string().optional(),
});

/** The `host.onAppCall` section of the configuration file. */
export const appCallRulesSchema = z.strictObject({
  /** The verdict when no rule matches; `ask` when missing. */
  default: verdictSchema.default("ask"),
  /** Tried in order. */
  rules: z.array(appCallRuleSchema).default([]),
});

/** A parsed rule policy. */
export type AppCallRules = z.output<typeof appCallRulesSchema>;

/** A rule policy as written in the configuration file. */
export type AppCallRulesInput = z.input<typeof appCallRulesSchema>;

/** A rule of a rule policy. */
export type AppCallRule = z.output<typeof appCallRuleSchema>;

/** A rule policy that is not valid. */
export class PolicyConfigError extends Error {
  override readonly name = "PolicyConfigError";
  /** Stable code. */
  readonly code = "invalid_policy" as const;
}

/**
 * Validates a rule policy.
 *
 * @param config - the `host.onAppCall` section, as read from JSON.
 * @param where - how the section is named in messages.
 * @returns the policy with its defaults filled in.
 * @throws {@link PolicyConfigError} listing every problem with its place.
 */
export function parseAppCallRules(config: unknown, where = "host.onAppCall"): AppCallRules {
  const parsed = appCallRulesSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${where}${pathText(issue.path)}: ${issue.message}`,
  );
  throw new PolicyConfigError(
    `The onAppCall policy is not valid. ${problems.join("; ")}. Fix it in the configuration file.`,
  );
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
}

const ANNOTATION_HINTS = {
  readOnly: "readOnlyHint",
  destructive: "destructiveHint",
  openWorld: "openWorldHint",
  idempotent: "idempotentHint",
} as const satisfies Record<NonNullable<AppCallRule["annotation"]>, keyof EffectiveAnnotations>;

function ruleMatches(rule: AppCallRule, call: AppCall): boolean {
  if (rule.source !== undefined && rule.source !== call.source) return false;
  if (rule.tool !== undefined && rule.tool !== call.name) return false;
  if (rule.annotation !== undefined) {
    const hints = effectiveAnnotations(call.tool.annotations);
    if (!hints[ANNOTATION_HINTS[rule.annotation]]) return false;
  }
  return true;
}

function applyVerdict(
  verdict: AppCallRule["verdict"],
  reason: string | undefined,
  call: AppCall,
): unknown {
  if (verdict === "allow") return true;
  if (verdict === "refuse") return reason ?? false;
  return reason === undefined ? call.ask() : call.ask(reason);
}

function rules(config: unknown): OnAppCall {
  const policy = parseAppCallRules(config);
  return (call) => {
    const rule = policy.rules.find((candidate) => ruleMatches(candidate, call));
    if (rule === undefined) return applyVerdict(policy.default, undefined, call);
    return applyVerdict(rule.verdict, rule.reason, call);
  };
}

const allowAll: OnAppCall = () => true;

function refuseAll(reason?: string): OnAppCall {
  return () => reason ?? false;
}

/**
 * Ready-made `onAppCall` checks.
 *
 * - `annotations(options?)`: read-only tools are allowed; destructive or open-world tools, and
 *   tools with no hints at all, ask the person; the rest (closed-world, not destructive) are
 *   allowed. Missing hints take the MCP defaults.
 * - `rules(config)`: the `host.onAppCall` section of the configuration file
 *   (`{ default, rules: [{ source?, tool?, annotation?, verdict, reason? }] }`); the first rule
 *   whose fields all match decides, else `default`. Throws {@link PolicyConfigError} when the
 *   section is not valid.
 * - `allowAll`: allows every call.
 * - `refuseAll(reason?)`: refuses every call, with `reason` or the default message.
 */
export const policies = { annotations, rules, allowAll, refuseAll } as const;
