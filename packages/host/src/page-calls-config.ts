import type { McpConfig } from "@mcp-chat-host/connection";

/** The largest `host.pageCalls.perSecond` and `burst` accepted. */
export const maximumPageCallRate = 1_000_000;

/** A page-request budget: sustained requests per second and the largest burst. */
export interface PageCallRate {
  perSecond: number;
  burst: number;
}

/**
 * The configuration's page-request budgets: one card's (`perSecond`, `burst`), and, when set,
 * those of all cards of one source in a session and of all cards of a session.
 */
export interface PageCallsConfig extends PageCallRate {
  perSource?: PageCallRate;
  perSession?: PageCallRate;
}

/** What the host allows a card when the configuration says nothing (20 a second, bursts of 40). */
export const defaultPageCallRate: PageCallRate = { perSecond: 20, burst: 40 };

const cardFields = ["perSecond", "burst", "perSource", "perSession"];
const rateFields = ["perSecond", "burst"];

function invalid(field: string, rule: string, value: unknown): Error {
  return new Error(
    `host.pageCalls.${field} must be ${rule}, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
  );
}

/** An object's fields, or the sentence saying it should be one with only the known fields. */
function fieldsOf(path: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(
      `${path} must be an object such as { "perSecond": 20, "burst": 40 }, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
    );
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    const allowed = known.map((key) => JSON.stringify(key));
    const list = `${allowed.slice(0, -1).join(", ")} and ${allowed.at(-1)}`;
    throw new Error(
      `${path} takes only ${list}, not ${unknown.map((key) => JSON.stringify(key)).join(", ")}. Fix it in the configuration file.`,
    );
  }
  return fields;
}

/** A budget's two fields, each left out taking the fallback's value. */
function rateOf(
  prefix: string,
  fields: Record<string, unknown>,
  fallback: PageCallRate,
): PageCallRate {
  // Only a field left out takes its default: `null` is a mistake to report, not "unset".
  const perSecond = fields["perSecond"] === undefined ? fallback.perSecond : fields["perSecond"];
  const burst = fields["burst"] === undefined ? fallback.burst : fields["burst"];
  if (
    typeof perSecond !== "number" ||
    !Number.isFinite(perSecond) ||
    perSecond <= 0 ||
    perSecond > maximumPageCallRate
  ) {
    throw invalid(
      `${prefix}perSecond`,
      `a number above 0 and at most ${maximumPageCallRate}`,
      perSecond,
    );
  }
  if (
    typeof burst !== "number" ||
    !Number.isInteger(burst) ||
    burst < 1 ||
    burst > maximumPageCallRate
  ) {
    throw invalid(`${prefix}burst`, `a whole number from 1 to ${maximumPageCallRate}`, burst);
  }
  return { perSecond, burst };
}

/**
 * The configuration's `host.pageCalls`: how many requests of each kind (tool calls, resource
 * requests, context updates, messages, log entries) a card's page may make per second
 * (`perSecond`) and at once (`burst`), and optionally the budgets shared by the cards of one
 * source (`perSource`) and of one session (`perSession`). A live dashboard or a game polls
 * faster than a person clicks, so an operator can raise the default; either field alone keeps the
 * other's default.
 *
 * @returns the budgets, or undefined when the section does not set them (the default,
 *   {@link defaultPageCallRate}).
 * @throws {Error} with a sentence naming the field when `pageCalls` (or `perSource`,
 *   `perSession`) is not an object, `perSecond` is not a number above 0 and at most
 *   {@link maximumPageCallRate}, `burst` is not a whole number from 1 to
 *   {@link maximumPageCallRate}, or another field is set.
 */
export function pageCallsFromConfig(config: McpConfig | null): PageCallsConfig | undefined {
  const section = config?.host;
  if (section === null || typeof section !== "object") return undefined;
  const value = (section as Record<string, unknown>)["pageCalls"];
  if (value === undefined) return undefined;
  const fields = fieldsOf("host.pageCalls", value, cardFields);
  const card = rateOf("", fields, defaultPageCallRate);
  const result: PageCallsConfig = { ...card };
  for (const tier of ["perSource", "perSession"] as const) {
    if (fields[tier] === undefined) continue;
    const tierFields = fieldsOf(`host.pageCalls.${tier}`, fields[tier], rateFields);
    // A tier's field left out is the card's, so `{ "burst": 200 }` keeps the card's rate.
    result[tier] = rateOf(`${tier}.`, tierFields, card);
  }
  return result;
}
