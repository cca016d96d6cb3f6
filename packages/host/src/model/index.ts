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
export type {
  ModelEnvironment,
  ModelObject,
  ModelSelectionErrorCode,
  ResolveModelOptions,
} from "./model-selection";
export {
  ARGUMENTS_NOT_OBJECT_REASON,
  DEFAULT_RETRY_AFTER_CAP_MS,
  DEFAULT_STALL_TIMEOUT_MS,
  ModelTurnError,
  runTurn,
} from "./model-runner";
export type { RunTurnOptions } from "./model-runner";
export { ModelCutOffError, ModelStallError, describeFailure } from "./model-failure";
export { ARGUMENTS_NOT_JSON_REASON, unknownToolReason } from "./invalid-tool-call";
export { systemClock } from "./turn-clock";
export type { TurnClock } from "./turn-clock";
export { TOOL_CANCELLED_TEXT } from "./step-record";
export type {
  TurnEvent,
  TurnEventListener,
  TurnFailure,
  TurnFailureKind,
  TurnResult,
  TurnStatus,
  TurnUsage,
} from "./turn-events";
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
