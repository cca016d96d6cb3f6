import type { McpConfig } from "@mcp-chat-host/connection";

/** The largest `host.pageCalls.perSecond` and `burst` accepted. */
export const maximumPageCallRate = 1_000_000;

/** A card's page-call budget: sustained calls per second and the largest burst. */
export interface PageCallRate {
  perSecond: number;
  burst: number;
}

/** What the host allows a card when the configuration says nothing (20 a second, bursts of 40). */
export const defaultPageCallRate: PageCallRate = { perSecond: 20, burst: 40 };

function invalid(field: string, rule: string, value: unknown): Error {
  return new Error(
    `host.pageCalls.${field} must be ${rule}, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
  );
}

/**
 * The configuration's `host.pageCalls`: how many tool calls a card's page may make per second
 * (`perSecond`) and at once (`burst`). A live dashboard or a game polls faster than a person
 * clicks, so an operator can raise the default; either field alone keeps the other's default.
 *
 * @returns the budget, or undefined when the section does not set it (the default,
 *   {@link defaultPageCallRate}).
 * @throws {Error} with a sentence naming the field when `pageCalls` is not an object, `perSecond`
 *   is not a number above 0 and at most {@link maximumPageCallRate}, `burst` is not a whole number
 *   from 1 to {@link maximumPageCallRate}, or another field is set.
 */
export function pageCallsFromConfig(config: McpConfig | null): PageCallRate | undefined {
  const section = config?.host;
  if (section === null || typeof section !== "object") return undefined;
  const value = (section as Record<string, unknown>)["pageCalls"];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(
      `host.pageCalls must be an object such as { "perSecond": 20, "burst": 40 }, not ${JSON.stringify(value)}. Fix it in the configuration file.`,
    );
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => key !== "perSecond" && key !== "burst");
  if (unknown.length > 0) {
    throw new Error(
      `host.pageCalls takes only "perSecond" and "burst", not ${unknown.map((key) => JSON.stringify(key)).join(", ")}. Fix it in the configuration file.`,
    );
  }
  // Only a field left out takes its default: `null` is a mistake to report, not "unset".
  const perSecond =
    fields["perSecond"] === undefined ? defaultPageCallRate.perSecond : fields["perSecond"];
  const burst = fields["burst"] === undefined ? defaultPageCallRate.burst : fields["burst"];
  if (
    typeof perSecond !== "number" ||
    !Number.isFinite(perSecond) ||
    perSecond <= 0 ||
    perSecond > maximumPageCallRate
  ) {
    throw invalid("perSecond", `a number above 0 and at most ${maximumPageCallRate}`, perSecond);
  }
  if (
    typeof burst !== "number" ||
    !Number.isInteger(burst) ||
    burst < 1 ||
    burst > maximumPageCallRate
  ) {
    throw invalid("burst", `a whole number from 1 to ${maximumPageCallRate}`, burst);
  }
  return { perSecond, burst };
}
