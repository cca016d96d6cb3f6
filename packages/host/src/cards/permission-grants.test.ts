import { describe, expect, it } from "vitest";
import { grantedPermissions } from "./permission-grants";

describe("grantedPermissions", () => {
  const declared = { camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} };

  it("grants nothing the person did not grant", () => {
    expect(grantedPermissions(declared, undefined)).toBeUndefined();
    expect(grantedPermissions(declared, [])).toBeUndefined();
  });

  it("keeps only what was both declared and granted", () => {
    expect(grantedPermissions(declared, ["camera"])).toEqual({ camera: {} });
    expect(grantedPermissions({ microphone: {} }, ["camera", "microphone"])).toEqual({
      microphone: {},
    });
    expect(grantedPermissions({ camera: true }, ["camera"])).toBeUndefined();
    expect(grantedPermissions(undefined, ["camera"])).toBeUndefined();
  });
});
