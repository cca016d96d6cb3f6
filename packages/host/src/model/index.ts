// The model layer: which model runs (model-selection), the offline model, and one turn of the
// model with the chat's tools (model-runner), whose calls pass tool-checks first.
export { createOfflineModel, splitIntoChunks } from "./offline-model";
export type { OfflineModelOptions } from "./offline-model";
export {
  APP_CONTEXT_HEADER_START,
  OFFLINE_RESULT_LIMIT,
  decideOfflineReply,
  offlineToolsFrom,
} from "./offline-rules";
export type { OfflineDecision, OfflineTool } from "./offline-rules";
export {
  MODEL_SPEC_FORMS,
  ModelSelectionError,
  describeModel,
  resolveModel,
} from "./model-selection";
export type { ModelEnvironment, ModelObject, ModelSelectionErrorCode } from "./model-selection";
export { ARGUMENTS_NOT_OBJECT_REASON, ModelTurnError, runTurn } from "./model-runner";
export type { RunTurnOptions } from "./model-runner";
export { TOOL_CANCELLED_TEXT } from "./step-record";
export type { TurnEvent, TurnEventListener, TurnResult, TurnStatus } from "./turn-events";
export {
  HOOK_FAILED_REASON,
  HOOK_REFUSED_REASON,
  ToolCallBudget,
  budgetSpentReason,
  checkToolRequest,
} from "./tool-checks";
export type {
  ToolCheckName,
  ToolCheckResult,
  ToolRequest,
  ToolRequestHook,
  ToolRequestVerdict,
} from "./tool-checks";
export {
  TOOL_REJECTED_PREFIX,
  modelOutputFor,
  refusalOutcome,
  toolOutcomeFromResult,
} from "./tool-outcome";
export type { ModelToolOutcome } from "./tool-outcome";
export type { HostTool, ToolInputSchema, ToolProgress, ToolRunContext } from "./host-tool";
