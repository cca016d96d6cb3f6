import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writePrivateFile, type SandboxPortMemory } from "@mcp-chat-host/host";

/** The key under which the sandbox port is kept (earlier versions kept one port per source). */
const sandboxKey = "sandbox";

/**
 * Keeps the sandbox listener's port in `<data>/sandbox-ports.json`, so that after a restart the
 * sandbox gets its port back and app views keep what they saved in the browser (storage belongs
 * to the origin, `http://<source>.localhost:<port>`, and the port is part of it). The file is
 * written readable by its owner only.
 *
 * @param dataDirectory - the data folder (must exist).
 * @returns the memory the host asks and tells.
 */
export function fileSandboxPorts(dataDirectory: string): SandboxPortMemory {
  const path = join(dataDirectory, "sandbox-ports.json");
  let port: number | undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    const value =
      typeof parsed === "object" && parsed !== null
        ? (parsed as Record<string, unknown>)[sandboxKey]
        : undefined;
    if (typeof value === "number" && Number.isInteger(value) && value > 0 && value < 65_536) {
      port = value;
    }
  } catch {
    // No file yet (first start) or an unreadable one: start afresh.
  }
  return {
    preferred: () => port,
    remember(chosen) {
      port = chosen;
      // `mode` of writeFileSync applies only to a new file; an older run's 0644 file stays so.
      writePrivateFile(path, `${JSON.stringify({ [sandboxKey]: chosen }, null, 2)}\n`);
    },
  };
}
