import { describe, expect, it } from "vitest";
import { localAddressOf } from "./local-address";

/** The hostname as the page's URL parser gives it. */
const hostOf = (url: string) => new URL(url).hostname;

describe("localAddressOf", () => {
  it.each([
    "http://127.0.0.1:8787/",
    "http://127.8.9.10/",
    "http://2130706433/", // 127.0.0.1 as one number
    "http://0x7f.1/", // 127.0.0.1 in hex, short form
    "http://0.0.0.0:3000/",
    "http://[::1]:8080/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://localhost:5173/",
    "http://LOCALHOST./",
    "http://app.localhost/",
  ])("finds %s on this computer", (url) => {
    expect(localAddressOf(hostOf(url))?.description).toBe("an address on this computer");
  });

  it.each([
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:192.168.0.1]/",
    "http://[64:ff9b::10.0.0.1]/",
    "http://printer/",
    "http://nas.local/",
    "http://router.lan/",
    "http://box.home.arpa/",
    "http://metadata.google.internal/",
  ])("finds %s on the local network", (url) => {
    expect(localAddressOf(hostOf(url))?.description).toBe("an address on your local network");
  });

  it.each([
    "https://example.com/",
    "http://8.8.8.8/",
    "http://172.32.0.1/",
    "http://172.15.255.255/",
    "http://192.169.0.1/",
    "http://11.0.0.1/",
    "http://[2001:db8::1]/",
    "http://[::ffff:8.8.8.8]/",
    "https://localhost.example.com/",
    "https://local.example/",
  ])("leaves %s alone (public)", (url) => {
    expect(localAddressOf(hostOf(url))).toBeNull();
  });

  it("names the address as written in the URL", () => {
    expect(localAddressOf(hostOf("http://[::1]:9/"))?.address).toBe("[::1]");
  });
});
