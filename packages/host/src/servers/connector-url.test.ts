// The check of a connector's address: https only (http only to loopback when allowed), no
// credentials, inside the operator's patterns, and every address its name resolves to public;
// the address checked is the one the pinned fetch connects to.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { connectorsFromConfig } from "./connectors-config";
import { checkConnectorUrl, pinnedFetch, type ResolveAddresses } from "./connector-url";
import { parseMcpConfig } from "@mcp-chat-host/connection";

function policy(allow: string[], allowLoopback = false) {
  return connectorsFromConfig(
    parseMcpConfig({ mcpServers: {}, host: { connectors: { allow, allowLoopback } } }),
  )!;
}

const publicName: ResolveAddresses = () =>
  Promise.resolve([{ address: "93.184.215.14", family: 4 }]);
const anyHost = policy(["https://*.example.com/*", "http://*.example.com/*"]);

describe("checkConnectorUrl", () => {
  it("accepts a public https address and pins the address its name resolved to", async () => {
    const checked = await checkConnectorUrl("https://mcp.example.com/mcp", anyHost, publicName);
    expect(checked.url.href).toBe("https://mcp.example.com/mcp");
    expect(checked).toMatchObject({ address: "93.184.215.14", family: 4 });
  });

  it.each([
    [
      "not a URL",
      "mcp.example.com",
      publicName,
      '"mcp.example.com" is not a web address; paste the server\'s full URL, starting with https://.',
    ],
    [
      "another scheme",
      "ftp://mcp.example.com/",
      publicName,
      'The server\'s address must start with https://, not "ftp:"; ask its provider for its https address.',
    ],
    [
      "a user name",
      "https://me:secret@mcp.example.com/mcp",
      publicName,
      "The address carries a user name or password; remove them, since you sign in to the server after adding it.",
    ],
    [
      "plain http",
      "http://mcp.example.com/mcp",
      publicName,
      'The address "http://mcp.example.com/mcp" is plain http; this host adds only servers reached over https.',
    ],
    [
      "an address outside the patterns",
      "https://mcp.other.net/mcp",
      publicName,
      'The address "https://mcp.other.net/mcp" is not one this host\'s operator allows; it must match https://*.example.com/* or http://*.example.com/*.',
    ],
    [
      "a name that is not found",
      "https://nowhere.example.com/mcp",
      () => Promise.reject(new Error("ENOTFOUND")),
      'The name "nowhere.example.com" could not be found; check the server\'s address.',
    ],
    [
      "a name with one private address among public ones",
      "https://mcp.example.com/mcp",
      () =>
        Promise.resolve([
          { address: "93.184.215.14", family: 4 },
          { address: "10.0.0.7", family: 4 },
        ]),
      'The address "https://mcp.example.com/mcp" leads to a private network address (10.0.0.7); this host adds only servers on the public internet.',
    ],
    [
      "a name resolving to loopback",
      "https://mcp.example.com/mcp",
      () => Promise.resolve([{ address: "::1", family: 6 }]),
      'The address "https://mcp.example.com/mcp" leads to a private network address (::1); this host adds only servers on the public internet.',
    ],
    [
      "a name resolving to 0.0.0.0",
      "https://mcp.example.com/mcp",
      () => Promise.resolve([{ address: "0.0.0.0", family: 4 }]),
      'The address "https://mcp.example.com/mcp" leads to 0.0.0.0, which reaches this machine; this host will not add it.',
    ],
  ])("refuses %s", async (_what, value, resolve, sentence) => {
    const refusal = checkConnectorUrl(value, anyHost, resolve);
    await expect(refusal).rejects.toThrow(sentence);
    await expect(refusal).rejects.toHaveProperty("name", "ConnectorUrlRefused");
  });

  it("accepts http to loopback only when the operator allows loopback", async () => {
    const loopback = policy(["http://127.0.0.1:*/*", "http://10.0.0.1/*"], true);
    await expect(checkConnectorUrl("http://127.0.0.1:9/mcp", loopback)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(checkConnectorUrl("http://10.0.0.1/mcp", loopback)).rejects.toThrow(
      'The address "http://10.0.0.1/mcp" leads to a private network address (10.0.0.1); this host adds only servers on the public internet.',
    );
    const publicHttp = policy(["http://*.example.com/*"], true);
    await expect(
      checkConnectorUrl("http://mcp.example.com/mcp", publicHttp, publicName),
    ).rejects.toThrow(
      'The address "http://mcp.example.com/mcp" is plain http to a public address; this host adds only servers reached over https.',
    );
    const noLoopback = policy(["https://127.0.0.1:*/*"]);
    await expect(checkConnectorUrl("https://127.0.0.1:9/mcp", noLoopback)).rejects.toThrow(
      "leads to a private network address (127.0.0.1)",
    );
  });
});

describe("pinnedFetch", () => {
  it("connects to the pinned address whatever the URL's name is", async () => {
    const server = createServer((request, response) => {
      response.end(`host ${request.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const url = new URL(`http://pinned.invalid:${port}/`);
    const pinned = pinnedFetch({ url, address: "127.0.0.1", family: 4 });
    try {
      const response = await pinned.fetch(url, { method: "GET" });
      expect(await response.text()).toBe(`host pinned.invalid:${port}`);
    } finally {
      await pinned.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
