import { buildAllowAttribute as sdkBuildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";
import { describe, expect, it } from "vitest";
import { buildAllowAttribute } from "./allow-attribute";

describe("buildAllowAttribute", () => {
  it("lists the requested features in the SDK's order and format", () => {
    expect(
      buildAllowAttribute({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} }),
    ).toBe("camera; microphone; geolocation; clipboard-write");
    expect(buildAllowAttribute({ clipboardWrite: {}, camera: {} })).toBe("camera; clipboard-write");
    for (const permissions of [
      { camera: {}, clipboardWrite: {} },
      { geolocation: {} },
      {},
      undefined,
    ]) {
      expect(buildAllowAttribute(permissions)).toBe(sdkBuildAllowAttribute(permissions));
    }
  });

  it("grants nothing for absent, empty or non-object requests and unknown keys", () => {
    expect(buildAllowAttribute(undefined)).toBe("");
    expect(buildAllowAttribute({})).toBe("");
    expect(buildAllowAttribute({ camera: true, microphone: null, usb: {} } as never)).toBe("");
  });
});
