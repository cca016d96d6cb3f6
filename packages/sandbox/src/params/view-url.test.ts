import { describe, expect, it } from "vitest";
import { signViewUrl, verifyViewUrl } from "./view-url";

const key = "a signing key of at least thirty-two bytes";
const viewOrigin = "http://notes.localhost:41234";
const ticket = { host: "http://127.0.0.1:3000", csp: "eyJjb25uZWN0RG9tYWlucyI6W119" };

describe("view URLs", () => {
  it("signs a URL on the view origin that verifies to the same ticket", async () => {
    const url = new URL(await signViewUrl(viewOrigin, ticket, key));
    expect(url.origin).toBe(viewOrigin);
    expect(url.pathname).toBe("/view");
    expect(await verifyViewUrl(url, key)).toEqual(ticket);
    const withoutCsp = new URL(await signViewUrl(viewOrigin, { host: ticket.host }, key));
    expect(await verifyViewUrl(withoutCsp, key)).toEqual({ host: ticket.host, csp: undefined });
  });

  it("refuses any change: another csp, host, origin, key, a repeated or extra parameter", async () => {
    const signed = new URL(await signViewUrl(viewOrigin, ticket, key));
    const changed = (edit: (url: URL) => void): URL => {
      const copy = new URL(signed);
      edit(copy);
      return copy;
    };
    for (const url of [
      changed((url) =>
        url.searchParams.set("csp", "eyJjb25uZWN0RG9tYWlucyI6WyJodHRwczovL2V2aWwiXX0"),
      ),
      changed((url) => url.searchParams.delete("csp")),
      changed((url) => url.searchParams.set("host", "http://evil.example")),
      changed((url) => url.searchParams.append("csp", ticket.csp)),
      changed((url) => url.searchParams.set("extra", "1")),
      changed((url) => url.searchParams.set("sig", "x")),
      changed((url) => url.searchParams.delete("sig")),
      new URL(`http://other.localhost:41234${signed.pathname}${signed.search}`),
    ]) {
      expect(await verifyViewUrl(url, key), url.toString()).toBeUndefined();
    }
    expect(await verifyViewUrl(signed, "another key that is also long enough!!")).toBeUndefined();
  });

  it("refuses a short key", async () => {
    await expect(signViewUrl(viewOrigin, ticket, "short")).rejects.toMatchObject({
      code: "invalid_signing_key",
    });
  });
});
