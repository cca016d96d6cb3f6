import { type RefObject, useEffect } from "react";

/**
 * Keeps `--mch-dock-height` on `column` equal to the height of its composer dock, so a card in
 * full screen or picture in picture leaves the composer room: the composer is host UI and is
 * always drawn above every card (styles/layers.css).
 *
 * @param column - the chat column (the variable's owner; cards inside it inherit it).
 * @param dock - the composer's dock.
 */
export function useDockHeight(
  column: RefObject<HTMLElement | null>,
  dock: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const owner = column.current;
    const element = dock.current;
    if (owner === null || element === null) return;
    const apply = () =>
      owner.style.setProperty("--mch-dock-height", `${element.getBoundingClientRect().height}px`);
    apply();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(apply);
    observer.observe(element);
    return () => observer.disconnect();
  }, [column, dock]);
}
