import { describe, expect, it } from "vitest";
import { SandboxConfigurationError } from "../sandbox-error";
import {
  buildContentSecurityPolicy,
  maximumCspSourcesPerField,
  specDefaultCspDirectives,
} from "./content-security-policy";

const hostOrigin = "http://127.0.0.1:3000";

function directives(header: string): Map<string, string> {
  return new Map(
    header.split("; ").map((directive) => {
      const [name = "", ...values] = directive.split(" ");
      return [name, values.join(" ")];
    }),
  );
}

describe("buildContentSecurityPolicy", () => {
  it("uses exactly the spec's restrictive default when no csp is declared", () => {
    const policy = buildContentSecurityPolicy(undefined, { hostOrigin });
    expect(policy.header).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; object-src 'none'; " +
        "frame-src 'none'; base-uri 'self'; frame-ancestors http://127.0.0.1:3000",
    );
    expect(specDefaultCspDirectives.join("; ")).toBe(
      policy.header.replace(/; frame-ancestors .*$/, ""),
    );
    expect(policy.applied).toBeUndefined();
    expect(policy.rejected).toEqual([]);
  });

  it("maps each declared list to its directives", () => {
    const policy = buildContentSecurityPolicy(
      {
        connectDomains: ["https://api.example.com", "wss://live.example.com"],
        resourceDomains: ["https://cdn.example.com", "https://*.fonts.example.net"],
        frameDomains: ["https://www.youtube.com"],
        baseUriDomains: ["https://base.example.com"],
      },
      { hostOrigin },
    );
    const parsed = directives(policy.header);
    const resources = "https://cdn.example.com https://*.fonts.example.net";
    expect(parsed.get("default-src")).toBe("'none'");
    expect(parsed.get("connect-src")).toBe("https://api.example.com wss://live.example.com");
    expect(parsed.get("script-src")).toBe(`'self' 'unsafe-inline' ${resources}`);
    expect(parsed.get("style-src")).toBe(`'self' 'unsafe-inline' ${resources}`);
    expect(parsed.get("img-src")).toBe(`'self' data: ${resources}`);
    expect(parsed.get("font-src")).toBe(`'self' data: ${resources}`);
    expect(parsed.get("media-src")).toBe(`'self' data: ${resources}`);
    expect(parsed.get("frame-src")).toBe("https://www.youtube.com");
    expect(parsed.get("base-uri")).toBe("https://base.example.com");
    expect(parsed.get("object-src")).toBe("'none'");
    expect(parsed.get("frame-ancestors")).toBe(hostOrigin);
    expect(policy.header).not.toContain("unsafe-eval");
    expect(policy.header).not.toContain("blob:");
    expect(policy.applied).toEqual({
      connectDomains: ["https://api.example.com", "wss://live.example.com"],
      resourceDomains: ["https://cdn.example.com", "https://*.fonts.example.net"],
      frameDomains: ["https://www.youtube.com"],
      baseUriDomains: ["https://base.example.com"],
    });
  });

  it("keeps the restrictive fallbacks for lists that are empty or absent", () => {
    const parsed = directives(buildContentSecurityPolicy({}, { hostOrigin }).header);
    expect(parsed.get("connect-src")).toBe("'none'");
    expect(parsed.get("frame-src")).toBe("'none'");
    expect(parsed.get("base-uri")).toBe("'self'");
    expect(parsed.get("object-src")).toBe("'none'");
    expect(parsed.get("script-src")).toBe("'self' 'unsafe-inline'");
  });

  it("drops and reports injection attempts, wildcards and the host's own origin", () => {
    const attempts = [
      "https://a.com; script-src *",
      "https://a.com 'unsafe-eval'",
      "'unsafe-eval'",
      '"https://a.com"',
      "*",
      "https:",
      "blob:",
      "data:",
      hostOrigin,
      "http://localhost:3000",
      "ws://127.0.0.1:3000",
    ];
    const policy = buildContentSecurityPolicy(
      {
        connectDomains: attempts,
        resourceDomains: attempts,
        frameDomains: attempts,
        baseUriDomains: attempts,
      },
      { hostOrigin },
    );
    const parsed = directives(policy.header);
    expect(parsed.get("connect-src")).toBe("'none'");
    expect(parsed.get("script-src")).toBe("'self' 'unsafe-inline'");
    expect(parsed.get("frame-src")).toBe("'none'");
    expect(parsed.get("base-uri")).toBe("'self'");
    expect(policy.header.split("; ").map((directive) => directive.split(" ")[0])).toEqual([
      "default-src",
      "script-src",
      "style-src",
      "img-src",
      "font-src",
      "media-src",
      "connect-src",
      "object-src",
      "frame-src",
      "base-uri",
      "frame-ancestors",
    ]);
    expect(policy.header).not.toContain("https://a.com");
    expect(policy.header).not.toContain("unsafe-eval");
    expect(policy.header).not.toContain("*");
    expect(policy.header).not.toContain("localhost");
    expect(policy.header.match(/127\.0\.0\.1:3000/g)).toHaveLength(1); // frame-ancestors only
    expect(policy.rejected).toHaveLength(attempts.length * 4);
    expect(policy.rejected[0]).toMatchObject({
      field: "csp.connectDomains",
      value: "https://a.com; script-src *",
      code: "unsafe_character",
    });
    expect(policy.rejected.filter((entry) => entry.code === "names_host_origin")).toHaveLength(12);
  });

  it("reports wrong types, unknown fields and too many entries without throwing", () => {
    const many = Array.from(
      { length: maximumCspSourcesPerField + 5 },
      (_, index) => `https://h${index}.example.com`,
    );
    const policy = buildContentSecurityPolicy(
      {
        connectDomains: "https://a.com",
        resourceDomains: [42, "https://ok.example.com"],
        frameDomains: many,
        scriptDomains: [],
      } as never,
      { hostOrigin },
    );
    expect(policy.rejected.map((entry) => [entry.field, entry.code])).toEqual([
      ["csp.scriptDomains", "unknown_field"],
      ["csp.connectDomains", "wrong_type"],
      ["csp.resourceDomains", "wrong_type"],
      ["csp.frameDomains", "too_many"],
    ]);
    expect(directives(policy.header).get("frame-src")?.split(" ")).toHaveLength(
      maximumCspSourcesPerField,
    );
    expect(directives(policy.header).get("img-src")).toBe("'self' data: https://ok.example.com");
    expect(buildContentSecurityPolicy(null as never, { hostOrigin }).rejected[0]?.code).toBe(
      "wrong_type",
    );
  });

  it("deduplicates entries after normalising them", () => {
    const policy = buildContentSecurityPolicy(
      { connectDomains: ["https://API.example.com", "https://api.example.com/"] },
      { hostOrigin },
    );
    expect(directives(policy.header).get("connect-src")).toBe("https://api.example.com");
  });

  it("uses the given frame ancestors and refuses a configuration that is not an origin", () => {
    const policy = buildContentSecurityPolicy(undefined, {
      hostOrigin: "http://127.0.0.1:3000/",
      frameAncestors: ["http://127.0.0.1:3000", "https://chat.example.com/"],
    });
    expect(directives(policy.header).get("frame-ancestors")).toBe(
      "http://127.0.0.1:3000 https://chat.example.com",
    );
    expect(
      directives(
        buildContentSecurityPolicy(undefined, { hostOrigin, frameAncestors: [] }).header,
      ).get("frame-ancestors"),
    ).toBe("'none'");
    expect(() =>
      buildContentSecurityPolicy(undefined, { hostOrigin, frameAncestors: ["*"] }),
    ).toThrow(SandboxConfigurationError);
    expect(() =>
      buildContentSecurityPolicy(undefined, {
        hostOrigin,
        frameAncestors: ["https://a.com; script-src *"],
      }),
    ).toThrow(SandboxConfigurationError);
    expect(() => buildContentSecurityPolicy(undefined, { hostOrigin: "not a url" })).toThrow(
      expect.objectContaining({ code: "invalid_host_origin" }),
    );
  });
});
