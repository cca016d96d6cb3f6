import { performance } from "node:perf_hooks";
import type { HostStore } from "../store/host-store";
import type { HostMetrics } from "./host-metrics";

/**
 * The store with each of its operations reported: how long it took and whether it failed,
 * labelled with the method's name. Everything else passes through unchanged; methods run on the
 * store itself (its private fields stay reachable). With metrics off the store is returned as
 * it is.
 *
 * @param store - the store to watch.
 * @param metrics - where operations are reported.
 * @returns a store that behaves as `store` does.
 */
export function measuredStore(store: HostStore, metrics: HostMetrics): HostStore {
  if (!metrics.enabled) return store;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || typeof property !== "string") return value;
      let measured = wrapped.get(property);
      if (measured === undefined) {
        measured = measuredOperation(
          property,
          value as (...args: unknown[]) => unknown,
          target,
          metrics,
        );
        wrapped.set(property, measured);
      }
      return measured;
    },
  });
}

function measuredOperation(
  operation: string,
  method: (...args: unknown[]) => unknown,
  target: HostStore,
  metrics: HostMetrics,
): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    const started = performance.now();
    const report = (failed: boolean) =>
      metrics.storeOperation(operation, failed, (performance.now() - started) / 1_000);
    let result: unknown;
    try {
      result = method.apply(target, args);
    } catch (error) {
      report(true);
      throw error;
    }
    if (!(result instanceof Promise)) {
      report(false);
      return result;
    }
    return result.then(
      (value: unknown) => {
        report(false);
        return value;
      },
      (error: unknown) => {
        report(true);
        throw error;
      },
    );
  };
}
