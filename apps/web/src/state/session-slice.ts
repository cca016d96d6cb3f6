import type { HostSliceCreator } from "./host-state";
import type { SessionSlice } from "./types/session";

/** Most notices shown at once: a flood of notices must not bury the page. */
const maximumNotices = 5;

let nextNoticeId = 1;

/** The session slice. */
export const createSessionSlice: HostSliceCreator<SessionSlice> = (set) => ({
  status: "connecting",
  statusMessage: null,
  sessionId: null,
  user: null,
  chats: [],
  model: null,
  signOut: false,
  notices: [],
  setStatus(status, message = null) {
    set({ status, statusMessage: message });
  },
  addNotice(level, message) {
    const id = nextNoticeId++;
    set((state) => ({
      notices: [...state.notices, { id, level, message }].slice(-maximumNotices),
    }));
    return id;
  },
  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
});
