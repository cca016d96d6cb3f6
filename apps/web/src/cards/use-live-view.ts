import { useCallback, useEffect, useSyncExternalStore, type RefObject } from "react";
import { pageLiveViews, type LiveViewBudget, type LiveViewState } from "./live-view-budget";
import { watchNearness } from "./live-view-nearness";

/**
 * Puts a card's slot in the live view budget while it is in the page, tells the budget when it
 * comes near the visible part of the list, and follows the card's state there.
 *
 * @param slot - the slot's element: the same one whether the view or the stand-in shows.
 * @param enabled - false for slots that stay out of the budget (the state is then `live`).
 * @returns the card's state in the budget.
 */
export function useLiveView(
  instanceId: string,
  slot: RefObject<HTMLElement | null>,
  enabled: boolean,
  budget: LiveViewBudget = pageLiveViews,
): LiveViewState {
  const subscribe = useCallback(
    (listener: () => void) => budget.subscribe(instanceId, listener),
    [budget, instanceId],
  );
  const state = useSyncExternalStore(subscribe, () => budget.stateOf(instanceId));
  useEffect(() => {
    const element = slot.current;
    if (!enabled || element === null) return;
    const leave = budget.join(instanceId, element);
    const stop = watchNearness(element, (near) => budget.setNear(instanceId, near));
    return () => {
      stop();
      leave();
    };
  }, [budget, instanceId, enabled, slot]);
  return enabled ? state : "live";
}
