import { useEffect, useId, useRef } from "react";
import type { PendingDownload } from "./card-store";
import { formatBytes } from "./download-files";

/** Props of {@link DownloadConfirm}. */
export interface DownloadConfirmProps {
  title: string;
  download: PendingDownload;
}

/**
 * Asks the person whether an app may save files: the sanitised names, their sizes and the total.
 * Links that are not http(s) are listed as "will not be opened". Escape or Cancel declines.
 *
 * @returns the dialog.
 */
export function DownloadConfirm(props: DownloadConfirmProps) {
  const { download } = props;
  const headingId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
  }, []);
  return (
    <div className="mch-card__dialog-backdrop">
      <div
        className="mch-card__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
        data-testid="download-confirm"
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.stopPropagation();
            download.answer(false);
          }
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
            onClick={() => download.answer(true)}
          >
            Download
          </button>
        </div>
      </div>
    </div>
  );
}
