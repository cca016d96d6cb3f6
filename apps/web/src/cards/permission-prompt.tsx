import type { ConsentArmingOptions } from "../consent/consent-arming";
import { ConsentQuestion } from "../consent/consent-question";
import { permissionList } from "../consent/permission-names";
import type { PendingPermissionRequest } from "../state/types/card-view-state";

/** Props of {@link PermissionPrompt}. */
export interface PermissionPromptProps {
  title: string;
  source: string;
  request: PendingPermissionRequest;
  /** The arming clock and delay (tests). */
  arming?: ConsentArmingOptions | undefined;
}

/**
 * Asks the person, naming the app, whether a card's view may use the powerful permissions it
 * declared (camera, microphone, location, clipboard). Asked before the view loads; the answer
 * holds for the source in this browser. "Allow" acts only for a press that began after the
 * question could be read; "Don't allow" and Escape answer no.
 *
 * @returns the dialog, in the top layer.
 */
export function PermissionPrompt(props: PermissionPromptProps) {
  const list = permissionList(props.request.permissions);
  return (
    <ConsentQuestion
      testId="permission-prompt"
      heading={
        <>
          Let “{props.title}” use {list}?
        </>
      }
      refuseLabel="Don't allow"
      allowLabel="Allow"
      refuseTestId="permission-refuse"
      allowTestId="permission-allow"
      onAnswer={(allowed) => props.request.answer(allowed)}
      arming={props.arming}
    >
      <p>
        The app from <strong data-testid="permission-prompt-source">{props.source}</strong> asks to
        use {list}. If you allow it, your browser may ask you too; the browser&apos;s question names
        this chat host, not the app.
      </p>
      <p className="mch-card__muted">
        Your answer is kept in this browser for every card from {props.source}. The card&apos;s
        permission button shows it and lets you change it.
      </p>
    </ConsentQuestion>
  );
}
