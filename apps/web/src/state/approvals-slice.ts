import type { HostSliceCreator } from "./host-state";
import type { ApprovalsSlice } from "./types/approvals";

/** The approvals slice. */
export const createApprovalsSlice: HostSliceCreator<ApprovalsSlice> = (set) => ({
  approvalQueue: [],
  answeringApproval: null,
  approvalError: null,
  enqueueApproval(request) {
    set((state) =>
      state.approvalQueue.some((queued) => queued.approvalId === request.approvalId)
        ? state
        : { approvalQueue: [...state.approvalQueue, request] },
    );
  },
  settleApproval(approvalId) {
    set((state) => {
      const wasFirst = state.approvalQueue[0]?.approvalId === approvalId;
      return {
        approvalQueue: state.approvalQueue.filter((queued) => queued.approvalId !== approvalId),
        // The error and the busy mark belong to the request on screen.
        approvalError: wasFirst ? null : state.approvalError,
        answeringApproval: state.answeringApproval === approvalId ? null : state.answeringApproval,
      };
    });
  },
  setAnsweringApproval(approvalId) {
    set({ answeringApproval: approvalId });
  },
  setApprovalError(message) {
    set({ approvalError: message });
  },
});
