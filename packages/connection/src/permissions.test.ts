import { describe, expect, it } from "vitest";
import {
  checkToolPermission,
  defaultToolPermissions,
  effectiveAnnotations,
  permissionReasons,
} from "./permissions";

const readOnlyClosed = { readOnlyHint: true, openWorldHint: false };
const everything = { web: true, write: true };

describe("effectiveAnnotations", () => {
  it("uses the cautious defaults when a tool declares nothing", () => {
    const expected = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    };
    expect(effectiveAnnotations()).toEqual(expected);
    expect(effectiveAnnotations(null)).toEqual(expected);
    expect(effectiveAnnotations({ title: "Only a title" })).toEqual(expected);
  });

  it("lets supplied hints override the defaults", () => {
    expect(
      effectiveAnnotations({
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      }),
    ).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it("takes a read-only tool as not destructive unless it says otherwise", () => {
    expect(effectiveAnnotations({ readOnlyHint: true }).destructiveHint).toBe(false);
    expect(
      effectiveAnnotations({ readOnlyHint: true, destructiveHint: true }).destructiveHint,
    ).toBe(true);
    expect(effectiveAnnotations({ readOnlyHint: false }).destructiveHint).toBe(true);
  });

  it("treats a hint that is not a boolean as missing", () => {
    const odd = { readOnlyHint: "yes", openWorldHint: 0 } as unknown as Record<string, boolean>;
    expect(effectiveAnnotations(odd)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });
});

describe("checkToolPermission in default mode", () => {
  it("documents the default permissions: no web, no write", () => {
    expect(defaultToolPermissions).toEqual({ web: false, write: false, mode: "default" });
    expect(Object.isFrozen(defaultToolPermissions)).toBe(true);
  });

  it("refuses a destructive tool when writes are disabled", () => {
    const tool = { annotations: { destructiveHint: true, openWorldHint: false } };
    expect(checkToolPermission(tool, { web: true, write: false })).toEqual({
      allowed: false,
      reason: "Tool is marked as destructive and write operations are disabled",
    });
    expect(checkToolPermission(tool, { web: false, write: true })).toEqual({ allowed: true });
  });

  it("refuses an open-world tool when web access is disabled", () => {
    const tool = { annotations: { readOnlyHint: true } };
    expect(checkToolPermission(tool, { web: false, write: true })).toEqual({
      allowed: false,
      reason: "Tool can access external resources but web access is disabled",
    });
    expect(checkToolPermission(tool, { web: true, write: false })).toEqual({ allowed: true });
  });

  it("refuses an unannotated tool under the default permissions, and runs it with both", () => {
    expect(checkToolPermission({})).toEqual({
      allowed: false,
      reason: permissionReasons.destructive,
    });
    expect(checkToolPermission({}, { web: false, write: true })).toEqual({
      allowed: false,
      reason: permissionReasons.openWorld,
    });
    expect(checkToolPermission({}, everything)).toEqual({ allowed: true });
  });

  it("runs a read-only, closed-world tool under the default permissions", () => {
    expect(checkToolPermission({ annotations: readOnlyClosed })).toEqual({ allowed: true });
  });

  it("judges a tool named like a built-in only by its annotations", () => {
    // A server's read_file with no annotations gets no file-reading privilege.
    expect(checkToolPermission({ name: "read_file" }, { web: false, write: true })).toEqual({
      allowed: false,
      reason: permissionReasons.openWorld,
    });
    for (const permissions of [
      defaultToolPermissions,
      { web: true, write: false },
      { web: false, write: false, mode: "plan" as const },
    ]) {
      for (const annotations of [undefined, readOnlyClosed, { destructiveHint: false }]) {
        expect(checkToolPermission({ name: "read_file", annotations }, permissions)).toEqual(
          checkToolPermission({ name: "some_other_tool", annotations }, permissions),
        );
      }
    }
  });
});

describe.each([
  ["plan", "plan mode"],
  ["readonly", "read-only mode"],
] as const)("checkToolPermission in %s mode", (mode, label) => {
  it("refuses a tool with no annotations at all", () => {
    const reason = `Tool has no annotations and ${label} allows only tools marked read-only`;
    for (const annotations of [undefined, null, {}, { title: "Search" }]) {
      expect(checkToolPermission({ annotations }, { ...everything, mode })).toEqual({
        allowed: false,
        reason,
      });
    }
  });

  it("refuses a destructive tool even when writes are allowed", () => {
    expect(
      checkToolPermission(
        { annotations: { readOnlyHint: true, destructiveHint: true } },
        { ...everything, mode },
      ),
    ).toEqual({
      allowed: false,
      reason: `Tool is marked as destructive and ${label} allows only read-only tools`,
    });
  });

  it("refuses an open-world tool without web access", () => {
    expect(
      checkToolPermission(
        { annotations: { readOnlyHint: true } },
        { web: false, write: true, mode },
      ),
    ).toEqual({ allowed: false, reason: permissionReasons.openWorld });
  });

  it("refuses a tool not marked read-only", () => {
    expect(
      checkToolPermission(
        { annotations: { destructiveHint: false, openWorldHint: false } },
        { ...everything, mode },
      ),
    ).toEqual({
      allowed: false,
      reason: `Tool is not marked as read-only and ${label} allows only read-only tools`,
    });
  });

  it("runs a read-only tool, open-world ones only with web access", () => {
    expect(
      checkToolPermission({ annotations: readOnlyClosed }, { web: false, write: false, mode }),
    ).toEqual({ allowed: true });
    expect(
      checkToolPermission(
        { annotations: { readOnlyHint: true } },
        { web: true, write: false, mode },
      ),
    ).toEqual({ allowed: true });
  });
});
