import { IssuerMismatchError, OAuthError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { OAuthUrlRefused } from "./oauth-url-policy";
import {
  signInFailure,
  signInFailureOf,
  signInNeedSentence,
  SignInRequired,
} from "./sign-in-errors";

describe("what a person reads when a server sign-in is needed or fails", () => {
  it("says why a server needs the person", () => {
    expect(signInNeedSentence("notes", "never")).toBe(
      'Sign in to "notes" to use its tools: open Servers and choose Connect.',
    );
    expect(signInNeedSentence("notes", "ended")).toBe(
      'Your sign-in to "notes" has ended (its authorization server would not renew it). Connect it again in Servers to use its tools.',
    );
    expect(signInNeedSentence("notes", "scope", "notes:read reports:read")).toBe(
      '"notes" needs more access for that (notes:read reports:read). In Servers, disconnect it and connect again to grant it.',
    );
    expect(new SignInRequired("notes", "never").message).toBe(signInNeedSentence("notes", "never"));
  });

  it("says what went wrong at the callback, one sentence each", () => {
    const sentences = Object.fromEntries(
      (
        [
          "unknown-state",
          "already-used",
          "denied",
          "provider-error",
          "issuer-mismatch",
          "refused-url",
          "exchange-failed",
          "unavailable",
        ] as const
      ).map((kind) => [kind, signInFailure(kind, "notes", "server_error").message]),
    );
    expect(sentences).toEqual({
      "unknown-state":
        "This sign-in is not one this host started, or it has expired. Start again from Servers in the chat.",
      "already-used": "This sign-in was already finished. Go back to the chat.",
      denied: 'You did not allow access to "notes", so nothing was connected.',
      "provider-error":
        'The authorization server of "notes" ended the sign-in with the error "server_error". Start again from Servers in the chat.',
      "issuer-mismatch":
        'The answer to this sign-in came from another authorization server than the one "notes" uses, so it was refused. Start again from Servers in the chat.',
      "refused-url":
        'The sign-in to "notes" was refused because its authorization server is not one this host will use. Tell the operator of that server.',
      "exchange-failed":
        'The authorization server of "notes" would not complete the sign-in. Start again from Servers in the chat.',
      unavailable:
        "The sign-in could not be kept because the host's database is not reachable. Try again in a moment.",
    });
    // An error code from the authorization server is never passed on as markup.
    expect(signInFailure("provider-error", "notes", '<img src=x onerror="1">').message).toContain(
      '"imgsrcxonerror1"',
    );
  });

  it("turns what the SDK throws into those sentences", () => {
    expect(
      signInFailureOf(
        new IssuerMismatchError("authorization_response", "https://a", "https://b"),
        "notes",
      ).kind,
    ).toBe("issuer-mismatch");
    expect(signInFailureOf(new OAuthError("access_denied" as never, "no"), "notes").kind).toBe(
      "denied",
    );
    const refused = new OAuthUrlRefused("refused sentence");
    expect(signInFailureOf(refused, "notes").message).toBe("refused sentence");
    expect(signInFailureOf(new Error("socket hang up"), "notes").kind).toBe("exchange-failed");
    const schema = Object.assign(new Error("[...]"), {
      name: "ZodError",
      issues: [{ path: ["authorization_endpoint"], message: "URL cannot use javascript:" }],
    });
    expect(signInFailureOf(schema, "notes").message).toBe(
      'The server "notes" gave authorization metadata that this host will not use (its authorization_endpoint is not a safe address), so you cannot sign in to it. Tell the operator of that server.',
    );
  });
});
