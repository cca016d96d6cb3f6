import { useEffect, useState } from "react";

/**
 * The current time, refreshed every `intervalMs` while `active` (a running tool's elapsed time).
 *
 * @param active - whether to keep ticking.
 * @param intervalMs - how often to refresh.
 * @param now - the clock (injected by tests).
 * @returns the time in ms since the epoch.
 */
export function useNow(active: boolean, intervalMs = 1_000, now: () => number = Date.now): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    if (!active) return;
    setTime(now());
    const timer = setInterval(() => setTime(now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, now]);
  return time;
}
