import { describe, expect, it } from "vitest";
import {
  checkSignInAddress,
  ownOriginSignInAddressMessage,
  unsafeSignInAddressMessage,
} from "./sign-in-address";

const page = "http://127.0.0.1:3000";

describe("checkSignInAddress", () => {
  it("opens https pages, and http ones on this machine", () => {
    expect(checkSignInAddress("https://login.example.com/authorize?x=1", "notes", page)).toEqual({
      ok: true,
      url: "https://login.example.com/authorize?x=1",
    });
    for (const address of [
      "http://127.0.0.1:4000/auth",
      "http://localhost:4000/auth",
      "http://[::1]:4000/auth",
      "http://auth.localhost/auth",
    ]) {
      expect(checkSignInAddress(address, "notes", page).ok).toBe(true);
    }
  });

  it("refuses other schemes, plain http elsewhere, the unspecified addresses and garbage", () => {
    for (const address of [
      "javascript:alert(document.cookie)",
      "file:///etc/passwd",
      "data:text/html,<script>alert(1)</script>",
      "http://login.example.com/authorize",
      "http://10.0.0.8/authorize",
      "http://0.0.0.0:4000/authorize",
      "http://[::]:4000/authorize",
      "not a url",
      "",
    ]) {
      expect(checkSignInAddress(address, "notes", page)).toEqual({
        ok: false,
        message: unsafeSignInAddressMessage("notes"),
      });
    }
  });

  it("opens the host's own start of a sign-in, which goes on to the authorization server", () => {
    const start = `${page}/oauth/start/${"a".repeat(43)}`;
    expect(checkSignInAddress(start, "notes", page)).toEqual({ ok: true, url: start });
    expect(checkSignInAddress(`${page}/oauth/start/x?next=/`, "notes", page)).toEqual({
      ok: false,
      message: ownOriginSignInAddressMessage("notes"),
    });
  });

  it("refuses a page on the host's own origin", () => {
    expect(checkSignInAddress(`${page}/oauth/callback?code=x`, "notes", page)).toEqual({
      ok: false,
      message: ownOriginSignInAddressMessage("notes"),
    });
  });

  it("says what happened and what to do, naming the server", () => {
    expect(unsafeSignInAddressMessage("Notes")).toBe(
      "Notes sent a sign-in page address that is not https, so it was not opened. Ask the operator to check the server's authorization settings.",
    );
    expect(ownOriginSignInAddressMessage("Notes")).toBe(
      "Notes sent a sign-in page address on this host itself, so it was not opened. Ask the operator to check the server's authorization settings.",
    );
  });
});
