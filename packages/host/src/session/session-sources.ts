import type { McpServerConfig } from "@mcp-chat-host/connection";
import type { Logger } from "pino";
import { SourceError } from "../sources/source-error";
import type { Source, SourceFactory } from "../sources/source";

/**
 * Where a chat's apps come from: an in-process `McpApp`, the value of `mcpClient()`, or the name
 * of a server in the configuration file.
 */
export type SourceSpec = SourceFactory | string;

/** How the host opens a configured server: its own connection per session, or one for the process. */
export interface ConfiguredSources {
  /** The names of the configured servers. */
  names(): string[];
  /** A configured server's entry, or undefined when none has that name. */
  entry(name: string): McpServerConfig | undefined;
  /**
   * The factory for one configured server, and whether sessions share one connection to it. A
   * remote server people sign in to gets a factory of the person's own (their bearer).
   *
   * @param name - the server's name.
   * @param userId - whose session opens it.
   * @returns undefined when no server has that name.
   */
  factory(name: string, userId: string): { factory: SourceFactory; shared: boolean } | undefined;
}

/** Where a session's source stands: not opened, opening, open, or failed with its error. */
export type SourceState =
  | { state: "idle" }
  | { state: "connecting" }
  | { state: "connected" }
  | { state: "failed"; error: unknown };

/**
 * Sources opened once for the whole process (configured stdio servers, by default: each costs a
 * process of about 100 MB). Opened lazily; a source that closed is opened again on next use.
 */
export class ProcessSources {
  readonly #open = new Map<string, Promise<Source>>();

  constructor(private readonly logger: Logger) {}

  /**
   * The process-wide source of a factory, opened on first use.
   *
   * @throws {SourceError} when it cannot be opened (the failure is not cached).
   */
  get(factory: SourceFactory): Promise<Source> {
    const existing = this.#open.get(factory.key);
    if (existing) return existing;
    const opening = factory.open().then(
      (source) => {
        source.onClose(() => {
          if (this.#open.get(factory.key) === opening) this.#open.delete(factory.key);
          this.logger.warn({ source: factory.key }, "shared MCP source closed");
        });
        return source;
      },
      (error: unknown) => {
        this.#open.delete(factory.key);
        throw error;
      },
    );
    this.#open.set(factory.key, opening);
    return opening;
  }

  /** Closes every shared source (at server shutdown). */
  async closeAll(): Promise<void> {
    const sources = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled(sources.map(async (opening) => (await opening).close()));
  }
}

interface Registered {
  factory: SourceFactory;
  shared: boolean;
  /** Registered by a configured server's name (registering the name again is harmless). */
  byName: boolean;
  opening: Promise<Source> | null;
  state: SourceState;
}

/**
 * The sources of one session, by key: every source is registered in the session, so a restored
 * card finds its source again by key. Each is opened once, on first use.
 */
export class SessionSources {
  readonly #byKey = new Map<string, Registered>();
  readonly #changeListeners: ((key: string) => void)[] = [];

  constructor(
    private readonly configured: ConfiguredSources,
    private readonly processSources: ProcessSources,
    private readonly userId: string,
  ) {}

  /** Calls `listener` with a source's key whenever its state changes (not when it stays). */
  onChange(listener: (key: string) => void): void {
    this.#changeListeners.push(listener);
  }

  /** Where a registered source stands (`idle` for a key not registered). */
  state(key: string): SourceState {
    return this.#byKey.get(key)?.state ?? { state: "idle" };
  }

  /**
   * Closes a source of the session's own and forgets it, so the next use opens it afresh (after
   * the person signed in or out of its server). A shared source is left alone.
   */
  async reset(key: string): Promise<void> {
    const registered = this.#byKey.get(key);
    if (registered === undefined || registered.shared) return;
    const opening = registered.opening;
    registered.opening = null;
    this.#setState(key, registered, { state: "idle" });
    const source = await opening?.catch(() => null);
    await source?.close();
  }

  /**
   * Closes a source of the session's own and unregisters it (a connector the person removed):
   * its key is free again and a card that still names it finds no source.
   */
  async forget(key: string): Promise<void> {
    const registered = this.#byKey.get(key);
    if (registered === undefined || registered.shared) return;
    this.#byKey.delete(key);
    for (const listener of this.#changeListeners) listener(key);
    const source = await registered.opening?.catch(() => null);
    await source?.close();
  }

  /**
   * Records a source's state and tells the listeners, only when it changed: a shared source is
   * looked up on every page call, and each "connected again" would otherwise send every tab of
   * the session its servers' states anew. A new failure is always told (its error may differ).
   */
  #setState(key: string, registered: Registered, state: SourceState): void {
    if (state.state !== "failed" && registered.state.state === state.state) return;
    registered.state = state;
    for (const listener of this.#changeListeners) listener(key);
  }

  /**
   * Registers a source and returns its key. Registering the same factory (or configured name)
   * again is harmless; another source under a key already taken is an error.
   *
   * @throws {SourceError} `invalid_options` for an unknown configured name or a key used twice.
   */
  register(spec: SourceSpec): string {
    const resolved = this.#resolve(spec);
    const existing = this.#byKey.get(resolved.factory.key);
    if (existing) {
      if (existing.factory === resolved.factory) return resolved.factory.key;
      if (existing.byName && typeof spec === "string") return resolved.factory.key;
      throw new SourceError(
        "invalid_options",
        `Each source needs its own name; "${resolved.factory.key}" is used twice.`,
      );
    }
    this.#byKey.set(resolved.factory.key, {
      ...resolved,
      byName: typeof spec === "string",
      opening: null,
      state: { state: "idle" },
    });
    return resolved.factory.key;
  }

  /** The key a spec would register under, without registering it. */
  keyOf(spec: SourceSpec): string {
    return this.#resolve(spec).factory.key;
  }

  /** True when a source of that key is registered in this session. */
  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** The registered keys, in order. */
  keys(): string[] {
    return [...this.#byKey.keys()];
  }

  /**
   * The open source of a key, opening it on first use.
   *
   * @throws {SourceError} `unavailable` when the key is not registered, or the opening error.
   */
  get(key: string): Promise<Source> {
    const registered = this.#byKey.get(key);
    if (!registered) {
      return Promise.reject(new SourceError("unavailable", "This app isn't available any more."));
    }
    if (registered.shared) {
      const shared = this.processSources.get(registered.factory);
      shared.then(
        () => this.#setState(key, registered, { state: "connected" }),
        (error: unknown) => this.#setState(key, registered, { state: "failed", error }),
      );
      return shared;
    }
    if (!registered.opening) {
      const opening = registered.factory.open();
      registered.opening = opening;
      this.#setState(key, registered, { state: "connecting" });
      // A failed or closed source is opened again on next use.
      opening.then(
        (source) => {
          if (registered.opening === opening) {
            this.#setState(key, registered, { state: "connected" });
          }
          source.onClose(() => {
            if (registered.opening !== opening) return;
            registered.opening = null;
            this.#setState(key, registered, { state: "idle" });
          });
        },
        (error: unknown) => {
          if (registered.opening !== opening) return;
          registered.opening = null;
          this.#setState(key, registered, { state: "failed", error });
        },
      );
    }
    return registered.opening;
  }

  /** Closes the session's own sources; shared ones stay open for other sessions. */
  async closeAll(): Promise<void> {
    const own = [...this.#byKey.values()].filter((entry) => !entry.shared && entry.opening);
    await Promise.allSettled(
      own.map(async (entry) => {
        const source = await entry.opening;
        await source?.close();
      }),
    );
  }

  #resolve(spec: SourceSpec): { factory: SourceFactory; shared: boolean } {
    if (typeof spec === "string") {
      const found = this.configured.factory(spec, this.userId);
      if (!found) {
        throw new SourceError(
          "invalid_options",
          `No MCP server named "${spec}" is configured; configured: ${this.configured.names().join(", ") || "none"}.`,
        );
      }
      return found;
    }
    if (
      typeof spec !== "object" ||
      spec === null ||
      typeof spec.open !== "function" ||
      typeof spec.key !== "string"
    ) {
      throw new SourceError(
        "invalid_options",
        "A source must be an McpApp, the value of mcpClient(), or the name of a configured server.",
      );
    }
    return { factory: spec, shared: false };
  }
}
