import { create } from "zustand";

/** A colour theme. */
export type ThemeName = "light" | "dark";

/** The `localStorage` key holding the person's theme choice. */
export const THEME_KEY = "mcp-chat-host:theme";

/** The person's theme choice and the system's. */
export interface ThemeState {
  /** What the person chose, or null to follow the system. */
  preference: ThemeName | null;
  /** What the system prefers (`prefers-color-scheme`). */
  system: ThemeName;
  /** Sets the person's choice (null: follow the system) and saves it. */
  setPreference(preference: ThemeName | null): void;
  /** Records the system's preference. */
  setSystem(system: ThemeName): void;
  /** Switches to the other theme than the one in effect. */
  toggle(): void;
}

/** The theme in effect: the person's choice, else the system's. */
export function effectiveTheme(state: Pick<ThemeState, "preference" | "system">): ThemeName {
  return state.preference ?? state.system;
}

function savedPreference(): ThemeName | null {
  try {
    const saved = globalThis.localStorage?.getItem(THEME_KEY);
    return saved === "light" || saved === "dark" ? saved : null;
  } catch {
    return null;
  }
}

function save(preference: ThemeName | null): void {
  try {
    if (preference === null) globalThis.localStorage?.removeItem(THEME_KEY);
    else globalThis.localStorage?.setItem(THEME_KEY, preference);
  } catch {
    // Storage can be disabled; the choice then lasts until the page is reloaded.
  }
}

function systemTheme(): ThemeName {
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches === true
    ? "dark"
    : "light";
}

/** The theme store. */
export const useThemeStore = create<ThemeState>()((set, get) => ({
  preference: savedPreference(),
  system: systemTheme(),
  setPreference(preference) {
    save(preference);
    set({ preference });
  },
  setSystem(system) {
    set({ system });
  },
  toggle() {
    const next: ThemeName = effectiveTheme(get()) === "dark" ? "light" : "dark";
    // Choosing the system's own theme means "follow the system" again.
    get().setPreference(next === get().system ? null : next);
  },
}));
