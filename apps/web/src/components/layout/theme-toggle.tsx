import { effectiveTheme, useThemeStore } from "../../state/theme-store";
import { MoonIcon, SunIcon } from "../../ui/icons";

/** Switches between the light and the dark theme (the first choice follows the system). */
export function ThemeToggle() {
  const theme = useThemeStore(effectiveTheme);
  const toggle = useThemeStore((state) => state.toggle);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      data-testid="theme-toggle"
      data-theme={theme}
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      onClick={toggle}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
