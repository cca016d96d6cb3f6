import { describe, expect, it } from "vitest";
import { SandboxConfigurationError } from "../sandbox-error";
import {
  buildContentSecurityPolicy,
  maximumCspSourcesPerField,
  specDefaultCspDirectives,
} from "./content-security-policy";

const hostOrigin = "http://127.0.0.1:3000";
const proxyOrigin = "http://proxy.localhost:41234";
const options = {
  hostOrigin,
  frameAncestors: [proxyOrigin, hostOrigin],
  reservedOrigins: ["http://*.localhost:41234"],
};

function directives(header: string): Map<string, string> {
  return new Map(
    header.split("; ").map((directive) => {
      const [name = "", ...values] = directive.split(" ");
      return [name, values.join(" ")];
    }),
  );
}

const execution = {
  "script-src": "'self' 'unsafe-inline' 'unsafe-eval' blob: data:",
  "style-src": "'self' 'unsafe-inline' blob: data:",
  "img-src": "'self' data: blob:",
  "font-src": "'self' data: blob:",
  "media-src": "'self' data: blob:",
  "worker-src": "'self' blob:",
};

describe("buildContentSecurityPolicy", () => {
  it("without a declaration: the spec's network default, with the relaxed execution set", () => {
    const policy = buildContentSecurityPolicy(undefined, options);
    expect(policy.header).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:; " +
        "style-src 'self' 'unsafe-inline' blob: data:; img-src 'self' data: blob:; " +
        "font-src 'self' data: blob:; media-src 'self' data: blob:; worker-src 'self' blob:; " +
        "connect-src 'none'; frame-src 'none'; child-src 'none'; object-src 'none'; " +
        "base-uri 'self'; form-action 'none'; " +
        "frame-ancestors http://proxy.localhost:41234 http://127.0.0.1:3000",
    );
    // Everything the spec's default lets a view reach, and nothing more.
    const parsed = directives(policy.header);
    for (const directive of specDefaultCspDirectives) {
      const [name = "", ...sources] = directive.split(" ");
      for (const source of sources) expect(parsed.get(name)?.split(" "), name).toContain(source);
    }
    expect(policy.applied).toBeUndefined();
    expect(policy.rejected).toEqual([]);
  });

  it("maps each declared list to its directives and relaxes only what runs", () => {
    const policy = buildContentSecurityPolicy(
      {
        connectDomains: ["https://api.example.com", "wss://live.example.com"],
        resourceDomains: ["https://cdn.example.com", "https://*.fonts.example.net"],
        frameDomains: ["https://www.youtube.com"],
        baseUriDomains: ["https://base.example.com"],
      },
      options,
    );
    const parsed = directives(policy.header);
    const resources = "https://cdn.example.com https://*.fonts.example.net";
    expect(parsed.get("default-src")).toBe("'none'");
    for (const [name, base] of Object.entries(execution)) {
      expect(parsed.get(name), name).toBe(`${base} ${resources}`);
    }
    expect(parsed.get("connect-src")).toBe("https://api.example.com wss://live.example.com");
    expect(parsed.get("frame-src")).toBe("https://www.youtube.com");
    expect(parsed.get("child-src")).toBe("https://www.youtube.com");
    expect(parsed.get("base-uri")).toBe("https://base.example.com");
    expect(parsed.get("object-src")).toBe("'none'");
    expect(parsed.get("form-action")).toBe("'none'");
    expect(parsed.get("frame-ancestors")).toBe(`${proxyOrigin} ${hostOrigin}`);
    // blob: and data: never reach the network directives.
    for (const name of ["connect-src", "frame-src", "child-src", "base-uri", "form-action"]) {
      expect(parsed.get(name), name).not.toMatch(/blob:|data:|'unsafe/);
    }
    expect(policy.applied).toEqual({
      connectDomains: ["https://api.example.com", "wss://live.example.com"],
      resourceDomains: ["https://cdn.example.com", "https://*.fonts.example.net"],
      frameDomains: ["https://www.youtube.com"],
      baseUriDomains: ["https://base.example.com"],
    });
  });

  it("keeps the restrictive fallbacks for lists that are empty or absent", () => {
    const parsed = directives(buildContentSecurityPolicy({}, options).header);
    expect(parsed.get("connect-src")).toBe("'none'");
    expect(parsed.get("frame-src")).toBe("'none'");
    expect(parsed.get("child-src")).toBe("'none'");
    expect(parsed.get("base-uri")).toBe("'self'");
    expect(parsed.get("object-src")).toBe("'none'");
    expect(parsed.get("form-action")).toBe("'none'");
    expect(parsed.get("script-src")).toBe(execution["script-src"]);
  });

  it("drops and reports injection attempts, wildcards, the host's and the sandbox's origins", () => {
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
      "http://proxy.localhost:41234",
      "http://notes.localhost:41234",
      "http://127.0.0.1:41234",
    ];
    const policy = buildContentSecurityPolicy(
      {
        connectDomains: attempts,
        resourceDomains: attempts,
        frameDomains: attempts,
        baseUriDomains: attempts,
      },
      options,
    );
    const parsed = directives(policy.header);
    expect(parsed.get("connect-src")).toBe("'none'");
    expect(parsed.get("script-src")).toBe(execution["script-src"]);
    expect(parsed.get("frame-src")).toBe("'none'");
    expect(parsed.get("base-uri")).toBe("'self'");
    expect(policy.header.split("; ").map((directive) => directive.split(" ")[0])).toEqual([
      "default-src",
      "script-src",
      "style-src",
      "img-src",
      "font-src",
      "media-src",
      "worker-src",
      "connect-src",
      "frame-src",
      "child-src",
      "object-src",
      "base-uri",
      "form-action",
      "frame-ancestors",
    ]);
    expect(policy.header).not.toContain("https://a.com");
    expect(policy.header).not.toContain("*");
    expect(policy.header).not.toContain("notes.localhost");
    expect(policy.header.match(/127\.0\.0\.1:3000/g)).toHaveLength(1); // frame-ancestors only
    expect(policy.header.match(/41234/g)).toHaveLength(1); // the proxy in frame-ancestors only
    expect(policy.rejected).toHaveLength(attempts.length * 4);
    expect(policy.rejected[0]).toMatchObject({
      field: "csp.connectDomains",
      value: "https://a.com; script-src *",
      code: "unsafe_character",
    });
    expect(policy.rejected.filter((entry) => entry.code === "names_host_origin")).toHaveLength(12);
    expect(policy.rejected.filter((entry) => entry.code === "names_sandbox_origin")).toHaveLength(
      12,
    );
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
      options,
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
    expect(directives(policy.header).get("img-src")).toBe(
      "'self' data: blob: https://ok.example.com",
    );
    expect(buildContentSecurityPolicy(null as never, options).rejected[0]?.code).toBe("wrong_type");
  });

  it("deduplicates entries after normalising them", () => {
    const policy = buildContentSecurityPolicy(
      { connectDomains: ["https://API.example.com", "https://api.example.com/"] },
      options,
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
    expect(() =>
      buildContentSecurityPolicy(undefined, { hostOrigin: "not a url", frameAncestors: [] }),
    ).toThrow(expect.objectContaining({ code: "invalid_host_origin" }));
  });
});
