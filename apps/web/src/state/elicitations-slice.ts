import type { HostSliceCreator } from "./host-state";
import type { ElicitationsSlice } from "./types/elicitations";

/** The servers' questions slice. */
export const createElicitationsSlice: HostSliceCreator<ElicitationsSlice> = (set) => ({
  elicitationQueue: [],
  answeringElicitation: null,
  elicitationError: null,
  enqueueElicitation(request) {
    set((state) =>
      state.elicitationQueue.some((queued) => queued.elicitationId === request.elicitationId)
        ? state
        : { elicitationQueue: [...state.elicitationQueue, request] },
    );
  },
  settleElicitation(elicitationId) {
    set((state) => {
      const wasFirst = state.elicitationQueue[0]?.elicitationId === elicitationId;
      return {
        elicitationQueue: state.elicitationQueue.filter(
          (queued) => queued.elicitationId !== elicitationId,
        ),
        // The error and the busy mark belong to the question on screen.
        elicitationError: wasFirst ? null : state.elicitationError,
        answeringElicitation:
          state.answeringElicitation === elicitationId ? null : state.answeringElicitation,
      };
    });
  },
  setAnsweringElicitation(elicitationId) {
    set({ answeringElicitation: elicitationId });
  },
  setElicitationError(message) {
    set({ elicitationError: message });
  },
});
