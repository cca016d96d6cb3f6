import type { ConsentArmingOptions } from "../consent/consent-arming";
import { ConsentQuestion } from "../consent/consent-question";
import type { PendingDisplayRequest } from "../state/types/card-view-state";

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
  return (
    <ConsentQuestion
      testId="display-mode-prompt"
      heading={<>Show “{props.title}” in full screen?</>}
      refuseLabel="Keep it here"
      allowLabel="Full screen"
      refuseTestId="display-mode-refuse"
      allowTestId="display-mode-allow"
      onAnswer={(allowed) => props.request.answer(allowed)}
      arming={props.arming}
    >
      <p>
        The app from <strong>{props.source}</strong> asks to fill the window. In full screen the
        host keeps a bar at the top with the app&apos;s name and an Exit button, and the composer at
        the bottom.
      </p>
    </ConsentQuestion>
  );
}
