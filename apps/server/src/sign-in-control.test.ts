// The sign-in request's answers, and that the command reads them back: a URL in the token mode,
// a refusal with a trusted header, a refusal for any other request.
import { describe, expect, it } from "vitest";
import { signInAnswerSchema, signInHandler } from "./sign-in-control";

const logged: string[] = [];
const logger = {
  info: (_details: object, message: string) => logged.push(message),
  warn: (_details: object, message: string) => logged.push(message),
};
let minted = 0;
const signInUrl = () => `http://127.0.0.1:8787/?token=token-${(minted += 1)}`;

describe("the sign-in handler", () => {
  it("mints a new URL for each sign-in request in the token mode, and logs it without the URL", () => {
    const handler = signInHandler({ auth: { mode: "token" }, signInUrl, logger });
    const first = signInAnswerSchema.parse(handler({ command: "sign-in" }));
    const second = signInAnswerSchema.parse(handler({ command: "sign-in" }));
    expect(first).toEqual({ ok: true, url: "http://127.0.0.1:8787/?token=token-1" });
    expect(second).toEqual({ ok: true, url: "http://127.0.0.1:8787/?token=token-2" });
    expect(logged.join(" ")).not.toContain("token-");
  });

  it("says sign-in tokens aren't used with a trusted header, and mints none", () => {
    const before = minted;
    const handler = signInHandler({
      auth: { mode: "trusted-header", header: "x-user", proxies: ["127.0.0.1"] },
      signInUrl,
      logger,
    });
    const answer = signInAnswerSchema.parse(handler({ command: "sign-in" }));
    expect(answer).toMatchObject({ ok: false, reason: "no_sign_in_tokens" });
    expect(answer.ok === false && answer.message).toContain("sign-in tokens aren't used");
    expect(minted).toBe(before);
  });

  it("refuses anything but the sign-in request", () => {
    const handler = signInHandler({ auth: { mode: "token" }, signInUrl, logger });
    for (const request of [
      null,
      "sign-in",
      {},
      { command: "stop" },
      { command: "sign-in", x: 1 },
    ]) {
      expect(signInAnswerSchema.parse(handler(request)), JSON.stringify(request)).toMatchObject({
        ok: false,
        reason: "bad_request",
      });
    }
  });

  it("reads only well-formed answers", () => {
    expect(signInAnswerSchema.safeParse({ ok: true, url: "javascript:alert(1)" }).success).toBe(
      false,
    );
    expect(signInAnswerSchema.safeParse({ ok: false, reason: "other", message: "" }).success).toBe(
      false,
    );
    expect(signInAnswerSchema.safeParse({ ok: true }).success).toBe(false);
  });
});
