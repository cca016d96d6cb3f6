import { securePrivateFolder } from "@mcp-chat-host/host";
import type { Logger } from "pino";

/**
 * Makes the data folder private before anything is read from it or written to it: created `0700`
 * when missing; else the folder set to `0700` and every file in it (the database with its `-wal`
 * and `-shm` files, `session-key`, `sandbox-ports.json`, any other) to `0600` at most. What was
 * changed is logged as a warning: another local user may have read those files before.
 *
 * @param data - the data folder (`--data`).
 * @param logger - where the change is reported.
 * @throws StoreError `storage_failed` when the folder belongs to another user or can't be changed.
 */
export function prepareDataFolder(data: string, logger: Pick<Logger, "warn">): void {
  const changes = securePrivateFolder(data);
  if (changes.length > 0) {
    logger.warn(
      { folder: data, changes },
      "the data folder was readable by other users; its modes were tightened",
    );
  }
}
