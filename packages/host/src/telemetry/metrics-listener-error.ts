/**
 * Thrown by `listen()` when the metrics listener (`--metrics-port`) cannot listen: the port is
 * taken, or the address is not this machine's. `message` is a sentence for the operator.
 */
export class MetricsListenerError extends Error {
  override readonly name = "MetricsListenerError";
  /** Stable code for scripts. */
  readonly code = "metrics_listener_failed";
}
