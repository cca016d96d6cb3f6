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
  const [ticking, setTicking] = useState(active);
  // Starting to tick shows the time at once, not a second later (React's "adjust state while
  // rendering" pattern: this render is redone with the new state before anything is shown).
  if (active !== ticking) {
    setTicking(active);
    if (active) setTime(now());
  }
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTime(now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, now]);
  return time;
}
