import { errorMessage } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import { ClusterStartError, redactUrl, withoutCredentials } from "./cluster/cluster-start-error";
import type { HostStore } from "./store/host-store";
import { openStore } from "./store/open-store";
import { postgresStartRefusal } from "./store/postgres-errors";
import type { HostServerOptions } from "./host-server-options";

/**
 * Opens the store a specification names; a database that cannot be reached is a start refusal
 * that says so.
 */
export async function openNamedStore(
  spec: string,
  logger: Logger,
  caFile: string | undefined,
): Promise<HostStore> {
  try {
    return await openStore(spec, { logger, ...(caFile === undefined ? {} : { caFile }) });
  } catch (error) {
    if (!/^postgres(ql)?:/i.test(spec)) throw error;
    // The sentence names the setting to check; the driver's text (with the server's address) is
    // for the log only, its credentials taken out.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    logger.error(
      {
        database: redactUrl(spec),
        detail: withoutCredentials(errorMessage(cause), spec),
      },
      "the database could not be opened",
    );
    throw new ClusterStartError("database", postgresStartRefusal(error), { cause: error });
  }
}

/** The store's database as the traces' `db.system.name` says it. */
export function storeSystem(store: HostServerOptions["store"]): string {
  if (typeof store === "object") return "other_sql";
  return /^postgres(ql)?:/i.test(store ?? "") ? "postgresql" : "sqlite";
}
