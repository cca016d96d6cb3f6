import { useId, useRef } from "react";
import { HostDialog } from "../components/common/host-dialog";
import type { ConsentArmingOptions } from "../consent/consent-arming";
import { ConsentHint } from "../consent/consent-hint";
import { permissionList } from "../consent/permission-names";
import { useConsentArming } from "../consent/use-consent-arming";
import type { PendingPermissionRequest } from "./card-store";

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
  const { request } = props;
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  const headingId = useId();
  const list = permissionList(request.permissions);
  return (
    <HostDialog
      dialogRef={dialog}
      className="mch-card__dialog"
      role="alertdialog"
      labelledBy={headingId}
      testId="permission-prompt"
      onEscape={() => request.answer(false)}
      attributes={{ "data-armed": String(consent.armed) }}
    >
      <h2 id={headingId} className="mch-card__dialog-title">
        Let “{props.title}” use {list}?
      </h2>
      <p>
        The app from <strong data-testid="permission-prompt-source">{props.source}</strong> asks to
        use {list}. If you allow it, your browser may ask you too; the browser&apos;s question names
        this chat host, not the app.
      </p>
      <p className="mch-card__muted">
        Your answer is kept in this browser for every card from {props.source}. The card&apos;s
        permission button shows it and lets you change it.
      </p>
      <ConsentHint refusedPress={consent.refusedPress} />
      <div className="mch-card__dialog-actions">
        <button
          type="button"
          className="mch-card__button"
          data-testid="permission-refuse"
          onClick={() => request.answer(false)}
        >
          Don&apos;t allow
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--primary"
          data-testid="permission-allow"
          aria-disabled={consent.armed ? undefined : true}
          onClick={() => {
            if (consent.activate()) request.answer(true);
          }}
        >
          Allow
        </button>
      </div>
    </HostDialog>
  );
}
