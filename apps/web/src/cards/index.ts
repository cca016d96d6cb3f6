/**
 * Live app cards: the React component that shows an MCP App view in its sandbox, the store of
 * what each card shows, and the helpers it is built from (link, download, display-mode and size
 * rules, teardown with a timeout, the bridge factory).
 */
export { CardView, type CardViewProps } from "./card-view";
export { CardController, type CardCallbacks, type CardControllerOptions } from "./card-controller";
export { sandboxTransport } from "./card-controller-options";
export {
  AttachQueue,
  attachConcurrency,
  pageAttachQueue,
  type AttachQueueOptions,
  type AttachTicket,
} from "./attach-queue";
export { isNearViewport, watchNearViewport } from "./near-viewport";
export { sandboxProblem } from "./sandbox-check";
export { ViewDelivery, type DeliveredPage, type DeliveryProblem } from "./view-delivery";
export { HostContextSync } from "./host-context-sync";
export { listenToCardEvents, type CardEventHandlers } from "./card-socket-events";
export { measureElement, observeContainer, type BoxSize } from "./container-observer";
export {
  hasLiveCard,
  liveCardIds,
  reattachCards,
  teardownCards,
  type LiveCard,
  type TeardownReason,
} from "./card-registry";
export {
  useCardStore,
  cardStoreAccess,
  initialCardState,
  maximumLogEntries,
  type CardLogEntry,
  type CardState,
  type CardStatus,
  type CardStore,
  type CardStoreAccess,
  type PendingDownload,
} from "./card-store";
export { requestAck, type CardSocket } from "./card-socket";
export { CardRequestError, toPageError, messageOf } from "./card-request-error";
export {
  createCardBridge,
  constructAppBridge,
  cardRequestHandlerSetters,
  cardBridgeEvents,
  type AppBridgeConstructor,
  type CardPageHandlers,
} from "./card-bridge";
export {
  createPageRequests,
  browserPageActions,
  cappedLogData,
  sendViewLog,
  type PageActions,
  type PageRequestContext,
  type PageRequestHandlers,
  type ViewLogParams,
} from "./card-page-requests";
export {
  decideOpenLink,
  openInNewTab,
  maximumLinkLength,
  type OpenLinkDecision,
} from "./open-link";
export {
  planDownload,
  sanitiseFileName,
  createDownloadBlob,
  formatBytes,
  base64DecodedBytes,
  maximumDownloadBytes,
  maximumFileNameLength,
  type DownloadItem,
  type DownloadPlan,
} from "./download-files";
export {
  allowedDisplayModes,
  decideDisplayMode,
  offeredDisplayModes,
  type DisplayMode,
  type DisplayModeRequester,
} from "./display-mode";
export {
  nextFrameHeight,
  containerDimensionsFor,
  shrinkTolerancePixels,
  initialFrameHeight,
  maximumInlineFrameHeight,
  type ContainerDimensions,
} from "./frame-size";
export {
  teardownWithTimeout,
  teardownTimeoutMs,
  globalTimers,
  type TeardownOutcome,
  type TimerFunctions,
} from "./teardown-with-timeout";
export {
  buildHostContext,
  cardHostCapabilities,
  cardHostInfo,
  cardUserAgent,
} from "./host-context";
export { hostStyleVariables, documentVariableReader, type Theme } from "./style-variables";
export { outerFrameSandbox, outerFrameReferrerPolicy } from "./frame-attributes";
export { SandboxTransport } from "./sandbox-transport";
export { DownloadQuestion } from "./download-question";
