import { useHostStore } from "../../state/host-store";

/** The server's notices (things that belong to no request), each with a dismiss button. */
export function NoticeList() {
  const notices = useHostStore((state) => state.notices);
  const dismiss = useHostStore((state) => state.dismissNotice);
  return (
    <div className="notice-list" aria-live="polite" data-testid="notice-list">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`notice notice-${notice.level}`}
          role={notice.level === "error" ? "alert" : "status"}
          data-testid="notice"
        >
          <span>{notice.message}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss"
            onClick={() => dismiss(notice.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
