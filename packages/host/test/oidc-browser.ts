// A browser as far as an OpenID sign-in needs one, for the vitest tests: it follows redirects
// between the host and the test provider, keeps each origin's cookies (by name; the host and
// the provider use different names), submits the provider's sign-in form and stops at the
// host's answer to the callback. Chromium does the same in e2e/tests/oidc-sign-in.spec.ts.
import { bindingOfSignInPage, rawRequest } from "../src/testing/http-layer-support";

/** One answer, with its cookies applied to the jar. */
export interface BrowserAnswer {
  status: number;
  url: string;
  location: string | undefined;
  body: string;
  setCookies: string[];
}

/** A cookie jar and a navigator. */
export class OidcTestBrowser {
  /** Cookies by `host:port`, then by name. */
  private readonly jars = new Map<string, Map<string, string>>();
  /**
   * Which port a request to a URL really goes to (as a balancer chooses a node); the `Host`
   * header and the cookies stay the URL's. Default: the URL's own port.
   */
  route: (url: URL) => number = (url) => Number(url.port);

  /** The `Cookie` header this browser sends to an origin. */
  cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).host) ?? new Map<string, string>();
    return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Sets a cookie as if the origin had (tests of a copied cookie). */
  setCookie(url: string, pair: string): void {
    const [name = "", ...rest] = pair.split("=");
    this.jar(url).set(name, rest.join("="));
  }

  private jar(url: string): Map<string, string> {
    const host = new URL(url).host;
    let jar = this.jars.get(host);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(host, jar);
    }
    return jar;
  }

  /**
   * One request with this browser's cookies for that origin (a navigation unless `headers` say
   * otherwise); the answer's cookies go into the jar.
   */
  async request(
    url: string,
    options: { method?: string; body?: string; headers?: Record<string, string> } = {},
  ): Promise<BrowserAnswer> {
    const target = new URL(url);
    const cookie = this.cookieHeader(url);
    const response = await rawRequest(this.route(target), `${target.pathname}${target.search}`, {
      method: options.method ?? "GET",
      headers: {
        host: target.host,
        "sec-fetch-dest": "document",
        "sec-fetch-mode": "navigate",
        ...(cookie === "" ? {} : { cookie }),
        ...(options.body === undefined
          ? {}
          : { "content-type": "application/x-www-form-urlencoded" }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    const raw = response.headers["set-cookie"];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    for (const line of setCookies) {
      const pair = line.split(";")[0] ?? "";
      const [name = "", ...rest] = pair.split("=");
      const value = rest.join("=");
      const gone = /max-age=0\b/i.test(line) || value === "";
      if (gone) this.jar(url).delete(name.trim());
      else this.jar(url).set(name.trim(), value);
    }
    const location = response.headers["location"];
    return {
      status: response.status,
      url,
      location: typeof location === "string" ? new URL(location, url).href : undefined,
      body: response.body,
      setCookies,
    };
  }

  /**
   * Follows redirects from `url` until an answer that is not one (at most 20), submitting the
   * provider's self-submitting forms as a browser's script would (it posts one when the person
   * switches accounts, to end the earlier sign-in first).
   */
  async follow(url: string, stopAt?: (url: string) => boolean): Promise<BrowserAnswer> {
    let answer = await this.request(url);
    for (let hops = 0; hops < 20; hops += 1) {
      if (answer.status === 200 && answer.body.includes("document.forms[0].submit()")) {
        answer = await this.submitForm(answer);
        continue;
      }
      if (answer.location === undefined || answer.status < 300 || answer.status >= 400)
        return answer;
      if (stopAt?.(answer.location) === true) return answer;
      answer = await this.request(answer.location);
    }
    throw new Error(`Too many redirects from ${url}.`);
  }

  /** Posts the first form of a page with its hidden inputs. */
  private submitForm(page: BrowserAnswer): Promise<BrowserAnswer> {
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? "";
    const fields = new URLSearchParams();
    for (const match of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields.set(match[1] ?? "", match[2] ?? "");
    const target = new URL(action.replaceAll("&#47;", "/").replaceAll("&amp;", "&"), page.url);
    return this.request(target.href, {
      method: "POST",
      body: fields.toString(),
      headers: { origin: new URL(page.url).origin },
    });
  }

  /**
   * Starts a sign-in at `startUrl` (the host's `/auth/login`), signs in at the provider's form
   * as `login`, and stops at the redirect to the host's callback without opening it.
   *
   * @returns the callback URL the provider sent the browser to.
   */
  async reachCallback(startUrl: string, login: string): Promise<string> {
    const isCallback = (url: string) => new URL(url).pathname === "/auth/callback";
    const form = await this.follow(startUrl, isCallback);
    const action = /<form method="post" action="([^"]+)"/.exec(form.body)?.[1];
    if (form.status !== 200 || action === undefined)
      throw new Error(`No sign-in form (${form.status}): ${form.body.slice(0, 300)}`);
    const submitted = await this.request(new URL(action.replaceAll("&#47;", "/"), form.url).href, {
      method: "POST",
      body: new URLSearchParams({ login }).toString(),
      headers: { origin: new URL(form.url).origin },
    });
    if (submitted.location === undefined)
      throw new Error(
        `The form did not redirect (${submitted.status}): ${submitted.body.slice(0, 300)}`,
      );
    const back = isCallback(submitted.location)
      ? submitted
      : await this.follow(submitted.location, isCallback);
    if (back.location === undefined || !isCallback(back.location))
      throw new Error(
        `The provider did not send the browser back (${back.status}): ${back.body.slice(0, 300)}`,
      );
    return back.location;
  }

  /**
   * Signs in all the way: {@link reachCallback}, then the callback (on `callbackOrigin` when
   * given, as a balancer may send it to another node).
   *
   * @returns the host's cookie `name=value` and the binding of its sign-in page.
   */
  async signIn(
    startUrl: string,
    login: string,
    callbackOrigin?: string,
  ): Promise<{ cookie: string; binding: string; answer: BrowserAnswer }> {
    const callback = new URL(await this.reachCallback(startUrl, login));
    const target =
      callbackOrigin === undefined
        ? callback
        : new URL(`${callback.pathname}${callback.search}`, callbackOrigin);
    if (callbackOrigin !== undefined) {
      // The browser knows one host name; carry the flow cookie to the other node's address.
      for (const pair of this.cookieHeader(startUrl).split("; "))
        if (pair !== "") this.setCookie(target.href, pair);
    }
    const answer = await this.request(target.href);
    const binding = bindingOfSignInPage(answer.body);
    const session = answer.setCookies.find((line) => line.startsWith("mch_session="));
    if (answer.status !== 200 || binding === undefined || session === undefined)
      throw new Error(
        `The callback did not sign in (${answer.status}): ${answer.body.slice(0, 400)}`,
      );
    return { cookie: session.split(";")[0] ?? "", binding, answer };
  }
}
