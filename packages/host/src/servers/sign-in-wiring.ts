// Where people's sign-ins to remote MCP servers are set up for a host: the credential seal (the
// operator's keys, or a key of this run only, said in the log), the service, the HTTP routes'
// port, and the news that a person's grant changed, told to their sessions on this node and, in
// a cluster, on every other node (socket.io's server-side events over the Redis adapter).
import { randomBytes } from "node:crypto";
import type { McpConfig } from "@mcp-chat-host/connection";
import type { Logger } from "pino";
import {
  createCredentialSeal,
  CredentialSealError,
  parseSealKeys,
  type SealKey,
} from "../oauth/credential-seal";
import { hostClientMetadata } from "../oauth/person-oauth-provider";
import { ServerGrants } from "../oauth/server-grant";
import { ServerSignIn } from "../oauth/server-sign-in";
import { signInEntry } from "../oauth/sign-in-eligibility";
import type { ServerSignInRoutesPort } from "../server/server-sign-in-routes";
import type { HostStore } from "../store/host-store";
import { connectorEntry } from "./connector-url";

/** The event nodes tell each other a person's grant changed with. */
const GRANT_CHANGED_EVENT = "cluster:server-grant-changed";

/** The cross-node side of the socket server, loosely typed (its event is this file's own). */
interface ServerSide {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  serverSideEmit(event: string, ...args: unknown[]): unknown;
}

/** What the wiring needs of the host. */
export interface SignInWiringOptions {
  config: McpConfig | null;
  store: HostStore;
  /** The operator's keys in their written form (`id:base64`, comma-separated, sealing key first). */
  credentialKeys: string | undefined;
  /** Whether people may add servers of their own (`host.connectors`): they sign in to those. */
  connectors: boolean;
  /** Accept authorization servers on loopback for any server (development). */
  allowLoopback: boolean | undefined;
  /** The host's canonical origin, once listening. */
  origin: () => string;
  /** The socket server's cross-node side, when other nodes may exist. */
  cluster: ServerSide | null;
  /** The sessions of a person on this node. */
  sessionsOf: (userId: string) => { servers: { grantChanged(server: string): Promise<void> } }[];
  logger: Logger;
  now: () => number;
}

/** The host's server sign-in, and the port of its routes. */
export interface SignInWiring {
  signIn: ServerSignIn;
  routes: ServerSignInRoutesPort;
}

/**
 * Sets up server sign-in, when a configured server takes one or people may add servers.
 *
 * @returns the service and the routes' port, or undefined when no server is signed in to.
 * @throws {CredentialSealError} for keys that are not well formed.
 */
export function wireServerSignIn(options: SignInWiringOptions): SignInWiring | undefined {
  const entries = Object.values(options.config?.servers ?? {});
  if (!options.connectors && !entries.some((entry) => signInEntry(entry) !== undefined)) {
    return undefined;
  }
  const { logger } = options;
  let keys: SealKey[];
  if (options.credentialKeys === undefined || options.credentialKeys.trim() === "") {
    keys = [{ id: "run", key: randomBytes(32) }];
    logger.warn(
      "No OAUTH_CREDENTIAL_KEYS were given: people's sign-ins to remote MCP servers are sealed with a key of this run only and must be made again after a restart.",
    );
  } else {
    try {
      keys = parseSealKeys(options.credentialKeys);
    } catch (error) {
      throw new CredentialSealError(
        `The keys for people's sign-ins to remote MCP servers (OAUTH_CREDENTIAL_KEYS) are not usable: ${(error as Error).message}`,
      );
    }
  }
  let seal;
  try {
    seal = createCredentialSeal(keys);
  } catch (error) {
    throw new CredentialSealError(
      `The keys for people's sign-ins to remote MCP servers (OAUTH_CREDENTIAL_KEYS) are not usable: ${(error as Error).message} Give each as <id>:<32 random bytes in base64>, for example from \`openssl rand -base64 32\`.`,
    );
  }
  const grants = new ServerGrants(options.store, seal, options.now);
  const tellHere = (userId: string, server: string): void => {
    for (const session of options.sessionsOf(userId)) {
      session.servers.grantChanged(server).catch((error: unknown) => {
        logger.warn({ err: error, server }, "A session could not follow a changed sign-in.");
      });
    }
  };
  options.cluster?.on(GRANT_CHANGED_EVENT, (userId: unknown, server: unknown) => {
    if (typeof userId !== "string" || typeof server !== "string") return;
    signIn.noteChanged(userId, server);
    tellHere(userId, server);
  });
  const signIn = new ServerSignIn({
    grants,
    pending: options.store,
    origin: options.origin,
    hostOrigins: () => hostOrigins(options.origin()),
    ...(options.allowLoopback === undefined ? {} : { allowLoopback: options.allowLoopback }),
    onGrantChanged: (userId, server) => {
      tellHere(userId, server);
      options.cluster?.serverSideEmit(GRANT_CHANGED_EVENT, userId, server);
    },
    logger,
    now: options.now,
  });
  // A configured server, or one the person whose flow it is added (read from the store, so the
  // callback may reach any node).
  const entryOf = async (name: string, userId: string) => {
    const configured = options.config?.servers[name];
    if (configured !== undefined) return signInEntry(configured);
    if (!options.connectors) return undefined;
    const found = (await options.store.listConnectors(userId)).find(
      (connector) => connector.name === name,
    );
    return found === undefined ? undefined : connectorEntry(found.name, found.url);
  };
  return {
    signIn,
    routes: {
      opened: (flowId) => signIn.opened(flowId),
      finish: (params) => signIn.finish(params, entryOf),
      clientMetadata: () =>
        signIn.clientMetadataUrl === undefined
          ? null
          : {
              client_id: signIn.clientMetadataUrl,
              ...hostClientMetadata(signIn.redirectUrl),
            },
    },
  };
}

/** The origins that reach this host: its canonical one, and on loopback its other loopback names. */
function hostOrigins(origin: string): string[] {
  const url = new URL(origin);
  const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];
  if (!loopbackNames.includes(url.hostname)) return [url.origin];
  return loopbackNames.map(
    (name) => `${url.protocol}//${name}${url.port === "" ? "" : `:${url.port}`}`,
  );
}
