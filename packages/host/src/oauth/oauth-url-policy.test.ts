import { describe, expect, it } from "vitest";
import { checkOAuthUrl, isNonPublicAddress } from "./oauth-url-policy";

const strict = { allowLoopback: false, hostOrigins: ["https://chat.example.org"] };
const local = { allowLoopback: true, hostOrigins: ["http://127.0.0.1:8787"] };

function refusal(url: string, policy = strict): string {
  try {
    checkOAuthUrl(url, "sign-in page", "notes", policy);
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

describe("which OAuth addresses a server's metadata may name", () => {
  it("accepts https on a public name, and loopback http only where allowed", () => {
    expect(refusal("https://auth.example.com/authorize")).toBe("accepted");
    expect(refusal("http://127.0.0.1:9000/authorize", local)).toBe("accepted");
    expect(refusal("http://localhost:9000/authorize", local)).toBe("accepted");
  });

  it("refuses every hostile address with one sentence naming the server", () => {
    const say = (why: string) =>
      `The server "notes" gave a sign-in page that this host will not use (${why}), so you cannot sign in to it. Tell the operator of that server.`;
    expect(refusal("javascript:alert(1)")).toBe(say('its scheme "javascript:" is not https'));
    expect(refusal("file:///etc/passwd")).toBe(say('its scheme "file:" is not https'));
    expect(refusal("data:text/html,<script>")).toBe(say('its scheme "data:" is not https'));
    expect(refusal("http://0.0.0.0:9000/authorize", local)).toBe(
      say("it points at 0.0.0.0, which reaches this machine"),
    );
    expect(refusal("https://[::]/authorize", local)).toBe(
      say("it points at 0.0.0.0, which reaches this machine"),
    );
    expect(refusal("http://auth.example.com/authorize")).toBe(say("it is plain http, not https"));
    expect(refusal("https://10.1.2.3/authorize")).toBe(
      say("it points at a private network address"),
    );
    expect(refusal("https://192.168.0.10/authorize")).toBe(
      say("it points at a private network address"),
    );
    expect(refusal("https://169.254.169.254/latest")).toBe(
      say("it points at a private network address"),
    );
    expect(refusal("https://[fd00::1]/authorize")).toBe(
      say("it points at a private network address"),
    );
    expect(refusal("http://127.0.0.1:9000/authorize")).toBe(say("it points at this machine"));
    expect(refusal("https://user:pass@auth.example.com/")).toBe(
      say("it carries a user name or password"),
    );
    expect(refusal("https://chat.example.org/oauth/callback")).toBe(
      say("it points at this host itself"),
    );
    expect(refusal("http://127.0.0.1:8787/", local)).toBe(say("it points at this host itself"));
    expect(refusal("not a url")).toBe(say("it is not a valid address"));
  });

  it("knows private, loopback, link-local and mapped addresses from public ones", () => {
    for (const address of [
      "10.0.0.1",
      "172.20.1.1",
      "127.0.0.1",
      "::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "100.64.0.1",
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ["8.8.8.8", "2001:4860:4860::8888", "auth.example.com"]) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});
