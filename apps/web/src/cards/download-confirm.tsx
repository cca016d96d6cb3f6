import { useEffect, useId, useRef } from "react";
import { HostDialog } from "../ui/host-dialog";
import type { ConsentArmingOptions } from "../consent/consent-arming";
import { ConsentHint } from "../consent/consent-hint";
import { useConsentArming } from "../consent/use-consent-arming";
import type { PendingDownload } from "../state/types/card-view-state";
import { formatBytes } from "./download-files";

/** Props of {@link DownloadConfirm}. */
export interface DownloadConfirmProps {
  title: string;
  download: PendingDownload;
  /** The arming clock and delay (tests). */
  arming?: ConsentArmingOptions | undefined;
}

/**
 * Asks the person whether an app may save files: the sanitised names, their sizes and the total.
 * Links that are not http(s) are listed as "will not be opened". Escape or Cancel declines.
 * Cancel has the focus first, so a stray Enter declines; Download acts only for a press that
 * began after the question could be read.
 *
 * @returns the dialog, in the top layer.
 */
export function DownloadConfirm(props: DownloadConfirmProps) {
  const { download } = props;
  const headingId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  useEffect(() => {
    cancelRef.current?.focus();
  }, []);
  return (
    <HostDialog
      dialogRef={dialog}
      className="mch-card__dialog"
      labelledBy={headingId}
      testId="download-confirm"
      onEscape={() => download.answer(false)}
      attributes={{
        "data-armed": String(consent.armed),
        "data-key-armed": String(consent.keyArmed),
      }}
    >
      <h2 id={headingId} className="mch-card__dialog-title">
        {props.title} wants to download{" "}
        {download.items.length === 1 ? "a file" : `${download.items.length} files`}
      </h2>
      <ul className="mch-card__download-list">
        {download.items.map((item, index) => (
          <li key={index}>
            <span className="mch-card__download-name">{item.name}</span>{" "}
            <span className="mch-card__muted">
              {formatBytes(item.bytes)}
              {item.kind === "link"
                ? item.openable
                  ? " · opens in a new tab"
                  : " · will not be opened"
                : ""}
            </span>
          </li>
        ))}
      </ul>
      <p className="mch-card__muted">Total {formatBytes(download.totalBytes)}</p>
      <ConsentHint refusal={consent.refusal} />
      <div className="mch-card__dialog-actions">
        <button
          type="button"
          className="mch-card__button"
          ref={cancelRef}
          onClick={() => download.answer(false)}
        >
          Cancel
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--primary"
          aria-disabled={consent.armed ? undefined : true}
          onClick={(event) => {
            if (consent.activate(event.currentTarget)) download.answer(true);
          }}
        >
          Download
        </button>
      </div>
    </HostDialog>
  );
}
