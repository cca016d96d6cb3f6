// The proxy URL the host hands its page, signed. The proxy page answers with a view URL the sandbox
// signs for whatever CSP and permissions the proxy URL names, so an unsigned proxy URL would let
// anyone who reaches the sandbox's port mint a view URL for a policy of their choosing. The host
// signs what it decided (page origin, source, the declared CSP and the granted permissions) with
// an expiry; the sandbox serves `/proxy` only for a URL it can verify.
import { buildProxyUrl, type ProxyParams } from "./proxy-params";
import { signText, verifyText, type SigningKey } from "./signing-key";

/** How long a signed proxy URL is served: 24 hours, in seconds. */
export const proxyUrlLifetimeSeconds = 24 * 60 * 60;

/** The parameters a signed proxy URL may carry; any other is refused. */
const signedNames = ["host", "view", "csp", "permissions"] as const;

/** The expiry parameter: seconds since the epoch. */
const expiresName = "exp";
/** The signature parameter. */
const signatureName = "sig";

/** Why {@link verifyProxyUrl} refused a URL. */
export type ProxyUrlRefusal = "not_signed" | "expired";

/** What {@link verifyProxyUrl} returns. */
export type ProxyUrlCheck = { ok: true } | { ok: false; reason: ProxyUrlRefusal };

/**
 * The text the signature covers. JSON of a fixed-length list, so no value can run into the
 * next; absent parameters are `null`, not empty, so removing one is a change.
 */
function signedText(
  origin: string,
  values: Record<(typeof signedNames)[number], string | null>,
  expires: string,
): string {
  return JSON.stringify([
    "mcp-chat-host proxy 1",
    origin,
    ...signedNames.map((name) => values[name]),
    expires,
  ]);
}

/**
 * Builds a card's proxy URL and signs it: origin, `host`, `view`, `csp`, `permissions` and an
 * expiry ({@link proxyUrlLifetimeSeconds} from `now`).
 *
 * @param sandboxOrigin - the proxy's origin, e.g. `http://proxy.localhost:41234`.
 * @param params - the page's origin, the source's label, the declared CSP and granted permissions.
 * @param key - the sandbox's signing key (the one its server verifies with).
 * @param now - the time in ms since the epoch (default `Date.now()`).
 * @returns `<sandboxOrigin>/proxy?host=...&view=...&csp=...&permissions=...&exp=...&sig=...`.
 * @throws {TypeError} when the origin is not a URL or a value has no JSON form.
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function signProxyUrl(
  sandboxOrigin: string,
  params: ProxyParams,
  key: SigningKey,
  now: number = Date.now(),
): Promise<string> {
  const url = new URL(buildProxyUrl(sandboxOrigin, params));
  const expires = String(Math.floor(now / 1000) + proxyUrlLifetimeSeconds);
  const values = Object.fromEntries(
    signedNames.map((name) => [name, url.searchParams.get(name)]),
  ) as Record<(typeof signedNames)[number], string | null>;
  url.searchParams.set(expiresName, expires);
  url.searchParams.set(signatureName, await signText(signedText(url.origin, values, expires), key));
  return url.toString();
}

/**
 * Checks a proxy URL's signature and expiry. The signature is checked first, so a changed
 * expiry is `not_signed`, and `expired` is said only of a URL the host did sign.
 *
 * @param url - the requested URL (its origin is the proxy origin it was signed for).
 * @param key - the sandbox's signing key.
 * @param now - the time in ms since the epoch (default `Date.now()`).
 * @returns `{ ok: true }`, or the reason: `not_signed` for a missing, altered or extra parameter
 *   or a bad signature, `expired` past its expiry; never throws for request input.
 * @throws {SandboxConfigurationError} `invalid_signing_key` for a key under 32 bytes.
 */
export async function verifyProxyUrl(
  url: URL,
  key: SigningKey,
  now: number = Date.now(),
): Promise<ProxyUrlCheck> {
  const params = url.searchParams;
  const known: readonly string[] = [...signedNames, expiresName, signatureName];
  for (const name of new Set(params.keys())) {
    if (!known.includes(name) || params.getAll(name).length !== 1) {
      return { ok: false, reason: "not_signed" };
    }
  }
  const expires = params.get(expiresName);
  const signature = params.get(signatureName);
  if (expires === null || signature === null || !/^\d{1,12}$/.test(expires)) {
    return { ok: false, reason: "not_signed" };
  }
  const values = Object.fromEntries(signedNames.map((name) => [name, params.get(name)])) as Record<
    (typeof signedNames)[number],
    string | null
  >;
  if (!(await verifyText(signedText(url.origin, values, expires), signature, key))) {
    return { ok: false, reason: "not_signed" };
  }
  return Number(expires) * 1000 <= now ? { ok: false, reason: "expired" } : { ok: true };
}
