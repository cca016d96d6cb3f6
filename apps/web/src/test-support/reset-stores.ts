import { useHostStore } from "../state/host-store";
import { usePermissionGrantsStore } from "../state/permission-grants-store";
import { useThemeStore } from "../state/theme-store";

/**
 * Puts the stores back in their initial state for the next test (zustand's `getInitialState`),
 * and forgets what the persisted ones saved.
 */
export function resetStores(): void {
  useHostStore.setState(useHostStore.getInitialState(), true);
  usePermissionGrantsStore.persist.clearStorage();
  usePermissionGrantsStore.setState(usePermissionGrantsStore.getInitialState(), true);
  useThemeStore.persist.clearStorage();
  useThemeStore.setState(useThemeStore.getInitialState(), true);
}
