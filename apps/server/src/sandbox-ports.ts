import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SandboxPortMemory } from "@mcp-chat-host/host";

/**
 * Keeps each source's sandbox port in `<data>/sandbox-ports.json`, so that after a restart a
 * source gets its port back and its views keep what they saved in the browser (storage belongs to
 * the origin, and the port is part of it).
 *
 * @param dataDirectory - the data folder (must exist).
 */
export function fileSandboxPorts(dataDirectory: string): SandboxPortMemory {
  const path = join(dataDirectory, "sandbox-ports.json");
  let ports: Record<string, number> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed === "object" && parsed !== null) {
      ports = Object.fromEntries(
        Object.entries(parsed).filter(
          (entry): entry is [string, number] =>
            Number.isInteger(entry[1]) && entry[1] > 0 && entry[1] < 65_536,
        ),
      );
    }
  } catch {
    // No file yet (first start) or an unreadable one: start afresh.
  }
  return {
    preferred: (sourceKey) => ports[sourceKey],
    remember(sourceKey, port) {
      ports[sourceKey] = port;
      writeFileSync(path, `${JSON.stringify(ports, null, 2)}\n`);
    },
  };
}
