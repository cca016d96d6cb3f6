// The host's own dialogs (approvals, permission and full-screen questions, downloads, the
// inspectors) open in the browser's top layer, as a manual popover: above every card whatever
// its z-index, full screen and picture in picture included. The layer covers the whole window
// with a dim backdrop, so no click reaches a card's frame while a dialog is open, and the focus
// stays in the dialog. (Not `<dialog>.showModal()`: in Chromium, once a modal dialog had made
// the cards' cross-origin frames inert, clicks on a card's frame opened later could go to the host
// page instead of the frame.)
import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef } from "react";
import { trapKey } from "./focus-trap";

/** Props of {@link HostDialog}. */
export interface HostDialogProps {
  /** Classes of the dialog box. */
  className: string;
  /** `alertdialog` for questions that need an answer; default `dialog`. */
  role?: "dialog" | "alertdialog";
  /** The id of the dialog's title. */
  labelledBy: string;
  testId: string;
  /** What Escape does. */
  onEscape: () => void;
  /** Other attributes for the dialog box (`data-*`). */
  attributes?: Readonly<Record<`data-${string}`, string>>;
  /** The dialog box, for callers that watch it (consent arming). */
  dialogRef?: RefObject<HTMLDivElement | null>;
  /** Called on a press on the dim area around the box; nothing happens without it. */
  onBackdropPress?: () => void;
  children: ReactNode;
}

/** Puts the layer in the top layer, where the browser has popovers (jsdom has none). */
function showLayer(layer: HTMLElement): void {
  if (typeof layer.showPopover !== "function") return;
  if (!layer.matches(":popover-open")) layer.showPopover();
}

function hideLayer(layer: HTMLElement): void {
  if (typeof layer.hidePopover !== "function") return;
  if (layer.matches(":popover-open")) layer.hidePopover();
}

/**
 * A modal dialog of the host, in the top layer. It takes the focus when it opens (the dialog box
 * itself, so no button is chosen for the person), keeps Tab inside, calls `onEscape` on Escape,
 * and gives the focus back to where it was when it closes, unless that was a card's frame.
 *
 * @returns the layer, holding the dialog box.
 */
export function HostDialog(props: HostDialogProps) {
  const layerRef = useRef<HTMLDivElement>(null);
  const ownRef = useRef<HTMLDivElement>(null);
  const boxRef = props.dialogRef ?? ownRef;
  const onEscape = useRef(props.onEscape);
  useLayoutEffect(() => {
    onEscape.current = props.onEscape;
  });

  // A layout effect: the dialog is in the top layer before the browser paints it, so it is never
  // drawn, even once, under a card.
  useLayoutEffect(() => {
    const layer = layerRef.current;
    const box = boxRef.current;
    if (layer === null || box === null) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    showLayer(layer);
    box.focus();
    return () => {
      hideLayer(layer);
      // Never back into a card's frame: the keyboard returns to the host, not to the view that
      // may have asked for the dialog.
      if (previous?.isConnected === true && !(previous instanceof HTMLIFrameElement)) {
        previous.focus();
      }
    };
  }, [boxRef]);

  useEffect(() => {
    const box = boxRef.current;
    if (box === null) return;
    const onKeyDown = (event: KeyboardEvent) => trapKey(box, event, () => onEscape.current());
    box.addEventListener("keydown", onKeyDown);
    return () => box.removeEventListener("keydown", onKeyDown);
  }, [boxRef]);

  const onBackdropPress = props.onBackdropPress;
  return (
    <div
      ref={layerRef}
      className="host-layer"
      popover="manual"
      data-testid="host-layer"
      onMouseDown={
        onBackdropPress === undefined
          ? undefined
          : (event) => {
              if (event.target === event.currentTarget) onBackdropPress();
            }
      }
    >
      <div
        ref={boxRef}
        className={`host-dialog ${props.className}`}
        role={props.role ?? "dialog"}
        aria-modal="true"
        aria-labelledby={props.labelledBy}
        tabIndex={-1}
        data-testid={props.testId}
        {...props.attributes}
      >
        {props.children}
      </div>
    </div>
  );
}
