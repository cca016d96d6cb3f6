import { useEffect } from "react";
import { effectiveTheme, useThemeStore } from "../../state/theme-store";

/**
 * Keeps the page's theme in effect: follows the system's `prefers-color-scheme` and puts the theme
 * in effect on `<html data-theme>`, which the CSS variables read.
 */
export function useThemeSync(): void {
  const theme = useThemeStore(effectiveTheme);
  const setSystem = useThemeStore((state) => state.setSystem);

  useEffect(() => {
    const query = window.matchMedia?.("(prefers-color-scheme: dark)");
    if (query === undefined) return;
    const onChange = () => setSystem(query.matches ? "dark" : "light");
    onChange();
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [setSystem]);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    // Set through the CSSOM: the page's CSP allows no inline style attributes.
    root.style.colorScheme = theme;
  }, [theme]);
}
