// The requests a session has in flight: each one's deadline, its caller's abort signal and its
// progress listener, and a way to fail them all at once when the session ends.
import type { Progress } from "@modelcontextprotocol/client";

/** What one tracked request needs. */
export interface TrackedRequestOptions {
  /** Past this, `onDeadline` runs (the session then ends, failing the request). */
  deadlineMs: number;
  /** The caller's signal: aborting rejects the request with its reason. */
  signal?: AbortSignal | undefined;
  /** Receives progress for this request. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Restart the deadline at each progress notification. */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Who made the request, as the caller tagged it (see {@link InFlightRequests.callers}). */
  caller?: unknown;
}

/** The caller of one request in flight, and a signal aborted once the request settles. */
export interface InFlightCaller {
  readonly caller: unknown;
  readonly settled: AbortController;
}

/** What the sending function receives. */
export interface SendContext {
  /** Aborted when the caller aborts; pass it to the SDK so it sends `notifications/cancelled`. */
  signal: AbortSignal;
  /** The progress token to put in `params._meta`, when progress is wanted. */
  progressToken: string | undefined;
}

/**
 * Tracks requests in flight. Each request settles exactly once: with its answer, with the
 * caller's abort reason, or with the error given to {@link InFlightRequests.failAll}.
 */
export class InFlightRequests {
  private readonly failures = new Set<(error: Error) => void>();
  private readonly progressListeners = new Map<string, (progress: Progress) => void>();
  /**
   * The caller of each tagged request, and its `settled` controller once {@link callers} handed
   * it out: most requests end with nobody having asked (no server question during the call), so
   * the controller, and the abort that builds an `AbortError`, is made only for one that was.
   */
  private readonly callerTags = new Map<
    (error: Error) => void,
    { caller: unknown; settled?: AbortController }
  >();
  private progressCounter = 0;

  /**
   * @param onDeadline - runs when a request passes its deadline (with the request still pending).
   */
  constructor(private readonly onDeadline: () => void) {}

  /** How many requests are in flight. */
  get size(): number {
    return this.failures.size;
  }

  /** The `caller` tags of the requests in flight that have one, oldest first. */
  callers(): InFlightCaller[] {
    return [...this.callerTags.values()].map((tag) => {
      tag.settled ??= new AbortController();
      return { caller: tag.caller, settled: tag.settled };
    });
  }

  /**
   * Sends one request and tracks it until it settles.
   *
   * @param send - sends the request; receives the abort signal and progress token to use.
   * @param options - deadline, caller signal, progress.
   * @param translate - maps what `send` rejected with to the error the caller gets.
   * @returns the answer.
   */
  track<Result>(
    send: (context: SendContext) => Promise<Result>,
    options: TrackedRequestOptions,
    translate: (error: unknown) => Error,
  ): Promise<Result> {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const wantsProgress =
      options.onProgress !== undefined || options.resetTimeoutOnProgress === true;
    const progressToken = wantsProgress ? `progress-${(this.progressCounter += 1)}` : undefined;
    return new Promise<Result>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const requestAbort = new AbortController();
      const settle = (): void => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onCallerAbort);
        this.failures.delete(fail);
        this.callerTags.get(fail)?.settled?.abort();
        this.callerTags.delete(fail);
        if (progressToken !== undefined) this.progressListeners.delete(progressToken);
      };
      const fail = (error: Error): void => {
        if (settled) return;
        settle();
        reject(error);
      };
      const onCallerAbort = (): void => {
        if (settled) return;
        const reason: unknown = signal?.reason;
        requestAbort.abort(reason);
        settle();
        reject(reason);
      };
      const armDeadline = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (!settled) this.onDeadline();
        }, options.deadlineMs);
      };
      this.failures.add(fail);
      if (options.caller !== undefined) this.callerTags.set(fail, { caller: options.caller });
      signal?.addEventListener("abort", onCallerAbort, { once: true });
      armDeadline();
      if (progressToken !== undefined) {
        this.progressListeners.set(progressToken, (progress) => {
          if (options.resetTimeoutOnProgress === true) armDeadline();
          options.onProgress?.(progress);
        });
      }
      let sent: Promise<Result>;
      try {
        sent = send({ signal: requestAbort.signal, progressToken });
      } catch (error) {
        fail(translate(error));
        return;
      }
      sent.then(
        (value) => {
          if (settled) return;
          settle();
          resolve(value);
        },
        (error: unknown) => {
          if (!settled) fail(translate(error));
        },
      );
    });
  }

  /**
   * Hands a `notifications/progress` to the request that owns its token.
   *
   * @param params - the notification's params.
   * @returns true when a tracked request took it.
   */
  deliverProgress(params: Record<string, unknown> | undefined): boolean {
    const token = params?.["progressToken"];
    const listener = typeof token === "string" ? this.progressListeners.get(token) : undefined;
    if (listener === undefined || params === undefined) return false;
    const progress: Progress = { progress: Number(params["progress"]) };
    if (typeof params["total"] === "number") progress.total = params["total"];
    if (typeof params["message"] === "string") progress.message = params["message"];
    listener(progress);
    return true;
  }

  /** Rejects every request in flight with `error`. */
  failAll(error: Error): void {
    for (const fail of [...this.failures]) fail(error);
  }
}
