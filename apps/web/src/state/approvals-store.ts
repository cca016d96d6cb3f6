import type { ApprovalRequest } from "@mcp-chat-host/protocol";
import { create } from "zustand";

/** The approval requests waiting for the person, oldest first; the dialog shows the first. */
export interface ApprovalsState {
  queue: ApprovalRequest[];
  /** The id of the request being answered, while its acknowledgement is pending. */
  answering: string | null;
  /** Why answering the first request failed, to show in the dialog. */
  error: string | null;
  /** Queues a request (`approval:request`); a request already queued is not added twice. */
  enqueue(request: ApprovalRequest): void;
  /** Removes a request: answered here, or settled elsewhere (`approval:settled`). */
  settle(approvalId: string): void;
  /** Marks a request as being answered (or none). */
  setAnswering(approvalId: string | null): void;
  /** Shows or clears the dialog's error. */
  setError(message: string | null): void;
  /** Back to the initial state (tests). */
  reset(): void;
}

/** The approvals store. */
export const useApprovalsStore = create<ApprovalsState>()((set) => ({
  queue: [],
  answering: null,
  error: null,
  enqueue(request) {
    set((state) =>
      state.queue.some((queued) => queued.approvalId === request.approvalId)
        ? state
        : { queue: [...state.queue, request] },
    );
  },
  settle(approvalId) {
    set((state) => {
      const wasFirst = state.queue[0]?.approvalId === approvalId;
      return {
        queue: state.queue.filter((queued) => queued.approvalId !== approvalId),
        // The error and the busy mark belong to the request on screen.
        error: wasFirst ? null : state.error,
        answering: state.answering === approvalId ? null : state.answering,
      };
    });
  },
  setAnswering(approvalId) {
    set({ answering: approvalId });
  },
  setError(message) {
    set({ error: message });
  },
  reset() {
    set({ queue: [], answering: null, error: null });
  },
}));
