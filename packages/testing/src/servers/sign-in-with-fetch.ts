// Drives the test authorization server's sign-in and consent pages with plain `fetch`, as a
// browser would: a cookie jar, redirects followed by hand, the forms posted. For tests that need
// an authorization code without a browser.

/** Options of {@link signInWithFetch}. */
export interface SignInWithFetchOptions {
  /** What to press on the consent page; default `allow`. */
  consent?: "allow" | "deny";
  /** Gives up after this many requests; default 12. */
  maxSteps?: number;
}

/** A cookie jar by name (the server's cookie paths are all under its own origin). */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const equals = pair.indexOf("=");
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", date = ""] = attribute.split("=");
        return key.trim().toLowerCase() === "expires" && Date.parse(date) < Date.now();
      });
      if (value === "" || expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Follows an authorization URL through the sign-in page (posting `login`) and the consent page
 * (pressing "Allow" or "Deny") until the server redirects away from its own origin, to the
 * client's redirect URI.
 *
 * @param authorizationUrl - the URL the OAuth client would open in a browser.
 * @param login - the account to sign in as.
 * @param options - what to press on the consent page; a step limit.
 * @returns the URL the server redirected to (with `code`, `state`, `iss` or `error`).
 * @throws Error when a page answers with an error, shows the sign-in form again (an unknown
 *   login), or the steps run out.
 */
export async function signInWithFetch(
  authorizationUrl: string | URL,
  login: string,
  options: SignInWithFetchOptions = {},
): Promise<URL> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let next: { url: URL; form?: URLSearchParams } = { url: new URL(authorizationUrl) };
  let signedIn = false;
  for (let step = 0; step < (options.maxSteps ?? 12); step += 1) {
    const response = await fetch(next.url, {
      redirect: "manual",
      signal: AbortSignal.timeout(5_000),
      headers: {
        cookie: jar.header(),
        ...(next.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      },
      ...(next.form === undefined ? {} : { method: "POST", body: next.form.toString() }),
    });
    jar.take(response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const target = new URL(location, next.url);
      if (target.origin !== origin) return target;
      next = { url: target };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) {
      throw new Error(
        `The authorization server answered ${response.status} at ${next.url.pathname}.`,
      );
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (action === undefined) {
      throw new Error(`The page at ${next.url.pathname} has no form to go on with.`);
    }
    const formUrl = new URL(action, next.url);
    if (html.includes('name="login"')) {
      if (signedIn) throw new Error(`The authorization server did not accept the login ${login}.`);
      signedIn = true;
      next = { url: formUrl, form: new URLSearchParams({ login }) };
    } else if (html.includes('name="decision"')) {
      next = { url: formUrl, form: new URLSearchParams({ decision: options.consent ?? "allow" }) };
    } else {
      throw new Error(`The page at ${next.url.pathname} is neither sign-in nor consent.`);
    }
  }
  throw new Error("The sign-in took too many steps; the authorization server may be looping.");
}
