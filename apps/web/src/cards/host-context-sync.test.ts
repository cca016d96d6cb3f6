// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { HostContextSync } from "./host-context-sync";

describe("HostContextSync", () => {
  it("reports only the fields that changed since the view last heard, once", () => {
    const sync = new HostContextSync({
      theme: "light",
      displayMode: "inline",
      containerDimensions: { width: 600, maxHeight: 6000 },
      toolInfo: { tool: { name: "t", inputSchema: { type: "object" } } },
    });
    expect(sync.takeChanges()).toBeNull();
    sync.update({ theme: "dark", containerDimensions: { width: 600, maxHeight: 6000 } });
    expect(sync.takeChanges()).toEqual({ theme: "dark" });
    expect(sync.takeChanges()).toBeNull();
    sync.update({ displayMode: "fullscreen" });
    sync.update({ displayMode: "inline" });
    expect(sync.takeChanges()).toBeNull();
  });

  it("never sends toolInfo as a change", () => {
    const sync = new HostContextSync({
      toolInfo: { tool: { name: "a", inputSchema: { type: "object" } } },
    });
    sync.update({ toolInfo: { tool: { name: "b", inputSchema: { type: "object" } } } });
    expect(sync.takeChanges()).toBeNull();
    expect(sync.current.toolInfo?.tool.name).toBe("b");
  });
});
