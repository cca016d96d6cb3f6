import { useId, useRef } from "react";
import { HostDialog } from "../components/common/host-dialog";
import type { ConsentArmingOptions } from "../consent/consent-arming";
import { ConsentHint } from "../consent/consent-hint";
import { useConsentArming } from "../consent/use-consent-arming";
import type { PendingDisplayRequest } from "./card-store";

/** Props of {@link DisplayModePrompt}. */
export interface DisplayModePromptProps {
  title: string;
  source: string;
  request: PendingDisplayRequest;
  /** The arming clock and delay (tests). */
  arming?: ConsentArmingOptions | undefined;
}

/**
 * Asks the person whether a view may fill the window, naming the app: a view gets full screen
 * only with the person's say (their click on the card's own button is the other way). "Full
 * screen" acts only for a press that began after the question could be read; "Keep it here" and
 * Escape answer no.
 *
 * @returns the dialog, in the top layer.
 */
export function DisplayModePrompt(props: DisplayModePromptProps) {
  const { request } = props;
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  const headingId = useId();
  return (
    <HostDialog
      dialogRef={dialog}
      className="mch-card__dialog"
      role="alertdialog"
      labelledBy={headingId}
      testId="display-mode-prompt"
      onEscape={() => request.answer(false)}
      attributes={{ "data-armed": String(consent.armed) }}
    >
      <h2 id={headingId} className="mch-card__dialog-title">
        Show “{props.title}” in full screen?
      </h2>
      <p>
        The app from <strong>{props.source}</strong> asks to fill the window. In full screen the
        host keeps a bar at the top with the app&apos;s name and an Exit button, and the composer at
        the bottom.
      </p>
      <ConsentHint refusedPress={consent.refusedPress} />
      <div className="mch-card__dialog-actions">
        <button
          type="button"
          className="mch-card__button"
          data-testid="display-mode-refuse"
          onClick={() => request.answer(false)}
        >
          Keep it here
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--primary"
          data-testid="display-mode-allow"
          aria-disabled={consent.armed ? undefined : true}
          onClick={() => {
            if (consent.activate()) request.answer(true);
          }}
        >
          Full screen
        </button>
      </div>
    </HostDialog>
  );
}
