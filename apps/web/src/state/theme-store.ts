import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

/** The page's colour theme. */
export type Theme = "light" | "dark";

/** The `localStorage` key holding the person's theme choice. */
const themeStorageKey = "mcp-chat-host:theme";

/** The person's theme choice and the system's. */
export interface ThemeState {
  /** What the person chose, or null to follow the system. */
  preference: Theme | null;
  /** What the system prefers (`prefers-color-scheme`). */
  system: Theme;
  /** Sets the person's choice (null: follow the system); it is saved in this browser. */
  setPreference(preference: Theme | null): void;
  /** Records the system's preference. */
  setSystem(system: Theme): void;
  /** Switches to the other theme than the one in effect. */
  toggle(): void;
}

/** The theme in effect: the person's choice, else the system's. */
export function effectiveTheme(state: Pick<ThemeState, "preference" | "system">): Theme {
  return state.preference ?? state.system;
}

function systemTheme(): Theme {
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches === true
    ? "dark"
    : "light";
}

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

/**
 * The theme store, kept apart from the page's store: it is this browser's preference, not the
 * session's, and only the person's choice is saved (`localStorage`; where storage is disabled
 * the choice lasts as long as the page).
 */
export const useThemeStore = create<ThemeState>()(
  persist(
    (set, get) => ({
      preference: null,
      system: systemTheme(),
      setPreference(preference) {
        set({ preference });
      },
      setSystem(system) {
        set({ system });
      },
      toggle() {
        const next: Theme = effectiveTheme(get()) === "dark" ? "light" : "dark";
        // Choosing the system's own theme means "follow the system" again.
        set({ preference: next === get().system ? null : next });
      },
    }),
    {
      name: themeStorageKey,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ preference: state.preference }),
      // What storage holds is not trusted: anything but a theme means "follow the system".
      merge: (saved, current) => {
        const preference = (saved as { preference?: unknown } | undefined)?.preference;
        return { ...current, preference: isTheme(preference) ? preference : null };
      },
    },
  ),
);
