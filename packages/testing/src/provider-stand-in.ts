import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { errorMessage } from "@mcp-chat-host/protocol";
import { createMessagesApi } from "./anthropic/messages-api";
import { defaultResponder } from "./default-responder";
import { FaultSchedule, type Fault, type FaultTarget } from "./fault";
import { createChatCompletionsApi } from "./openai/chat-completions-api";
import { openaiError } from "./openai/openai-errors";
import { createResponsesApi } from "./openai/responses-api";
import type { HttpAnswer, ProviderApi } from "./provider-api";
import { recordedHeaderNames, type RecordedRequest } from "./recorded-request";
import { asRecord } from "./request-view";
import { resolveReply } from "./resolve-reply";
import { isFaultReply, type Responder, type ResponderResult } from "./scripted-reply";
import { planStream, writeEvents } from "./sse-stream";

/** How a stand-in is set up. Every field has a default. */
export interface ProviderStandInOptions {
  /** The key every API expects (`Authorization: Bearer`, or Anthropic `x-api-key`). */
  readonly apiKey?: string;
  /** Decides replies once the scripted queue is empty; default {@link defaultResponder}. */
  readonly responder?: Responder;
  /** The most characters one streamed piece of text or arguments holds; default 6. */
  readonly pieceSize?: number;
  /** The shortest prefix Anthropic prompt caching keeps, in estimated tokens; default 0. */
  readonly anthropicMinimumCacheTokens?: number;
  /** The largest request body accepted, in bytes; default 32 MiB. */
  readonly maxBodyBytes?: number;
}

/** A running stand-in: one HTTP server speaking the three provider APIs. */
export interface ProviderStandIn {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `baseURL` for `createOpenAI` and `createOpenAICompatible` (`<url>/v1`). */
  readonly openaiBaseURL: string;
  /** `baseURL` for `createAnthropic` (`<url>/v1`). */
  readonly anthropicBaseURL: string;
  /** The key the stand-in expects. */
  readonly apiKey: string;
  /** Every request received, in order of arrival. */
  readonly requests: readonly RecordedRequest[];
  /**
   * A function replaces the responder; an array of replies (or `{ fault }`s) is queued after any
   * already queued, and each request takes the next one before the responder is asked.
   */
  respondWith(replies: Responder | readonly ResponderResult[]): void;
  /**
   * Plays a fault on the next request (or the next `times` requests matching `when`), after the
   * key and the body were checked. An HTTP fault answers instead of the model (no scripted reply
   * is used up); a stream fault plays over the reply the queue or the responder gives.
   */
  injectFault(fault: Fault, target?: FaultTarget): void;
  /** @returns the requests once at least `count` have arrived. */
  waitForRequests(count: number): Promise<readonly RecordedRequest[]>;
  /** Ends open streams (stalled ones too), closes every connection and the server. */
  close(): Promise<void>;
}

interface MutableRecord extends RecordedRequest {
  endedByServer: boolean;
}

const defaultKey = "stand-in-key";

/**
 * Starts a stand-in for the OpenAI Chat Completions, OpenAI Responses and Anthropic Messages
 * HTTP APIs on 127.0.0.1 and a free port. It checks keys and bodies as the real APIs do, answers
 * from scripted replies (or the responder), streams like the real APIs, records every request,
 * and plays injected faults.
 *
 * @returns the running stand-in; call `close()` when done.
 */
export async function startProviderStandIn(
  options: ProviderStandInOptions = {},
): Promise<ProviderStandIn> {
  const apiKey = options.apiKey ?? defaultKey;
  const pieceSize = options.pieceSize ?? 6;
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const apis: ProviderApi[] = [
    createChatCompletionsApi(pieceSize),
    createResponsesApi(pieceSize),
    createMessagesApi(pieceSize, options.anthropicMinimumCacheTokens ?? 0),
  ];
  let responder: Responder = options.responder ?? defaultResponder;
  const queue: ResponderResult[] = [];
  const faults = new FaultSchedule();
  const requests: MutableRecord[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const openRecords = new Set<MutableRecord>();
  const sockets = new Set<Socket>();

  function record(entry: MutableRecord): void {
    requests.push(entry);
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    const api = apis.find((candidate) => candidate.path === path);
    const raw = await readBody(request, maxBodyBytes);
    let body: unknown;
    try {
      body = raw === undefined ? undefined : (JSON.parse(raw) as unknown);
    } catch {
      body = undefined;
    }
    const object = asRecord(body);
    const headers: Record<string, string> = {};
    for (const name of recordedHeaderNames) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const authCheck = api?.checkAuth(request.headers, apiKey) ?? { auth: "missing" as const };
    let settle = (): void => {};
    const entry: MutableRecord = {
      sequence: requests.length,
      api: api?.name,
      method: request.method ?? "",
      path,
      auth: authCheck.auth,
      headers,
      body,
      view: api !== undefined && object !== undefined ? api.view(object) : undefined,
      status: undefined,
      fault: undefined,
      reply: undefined,
      closedByClient: false,
      responderError: undefined,
      settled: new Promise<void>((resolve) => (settle = resolve)),
      endedByServer: false,
    };
    openRecords.add(entry);
    response.on("close", () => {
      if (!response.writableFinished && !entry.endedByServer) entry.closedByClient = true;
      openRecords.delete(entry);
      settle();
    });
    record(entry);

    if (raw === undefined) return answer(response, entry, tooLarge());
    if (api === undefined || request.method !== "POST") {
      return answer(response, entry, notFound(request.method ?? "", path));
    }
    if (object === undefined || entry.view === undefined) {
      return answer(response, entry, api.unparsableBody());
    }
    if (authCheck.refusal !== undefined) return answer(response, entry, authCheck.refusal);
    const refusal = api.validate(object, request.headers);
    if (refusal !== undefined) return answer(response, entry, refusal);

    // An HTTP fault comes before the model runs; a stream fault plays over the model's reply.
    let fault = faults.take(entry.view);
    let result: ResponderResult | undefined;
    if (fault?.kind !== "http") {
      try {
        result = queue.shift() ?? (await responder(entry.view));
      } catch (error) {
        entry.responderError = errorMessage(error);
        console.warn(`provider stand-in: the responder threw: ${entry.responderError}`);
        return answer(response, entry, api.faultAnswer({ kind: "http", status: 500 }, entry.view));
      }
      if (isFaultReply(result)) fault ??= result.fault;
    }
    entry.fault = fault;
    if (fault?.kind === "http") return answer(response, entry, api.faultAnswer(fault, entry.view));

    // A fault reply has no answer to play the stream fault over: an empty text stands in.
    const scripted = result !== undefined && !isFaultReply(result) ? result : undefined;
    entry.reply = scripted;
    const resolved = resolveReply(scripted ?? {}, api.newToolCallId, api.accountInput(object));
    const rendered = api.render(resolved, entry.view, object);
    const requestId = { [api.requestIdHeader]: api.newRequestId() };
    if (connectionGone(response)) return;

    if (!entry.view.stream) {
      if (fault === undefined)
        return answer(response, entry, { status: 200, headers: requestId, body: rendered.json });
      return playJsonFault(response, entry, fault, rendered.json, requestId);
    }

    const plan = planStream(rendered.events, fault, rendered.streamError);
    entry.status = 200;
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...requestId,
    });
    // The real APIs send the status and headers at once, before the first event.
    response.flushHeaders();
    await writeEvents(response, plan.events);
    if (connectionGone(response)) return;
    if (plan.ending === "end") response.end();
    else if (plan.ending === "cut") {
      entry.endedByServer = true;
      response.socket?.destroy();
    }
    // "stall": nothing more is written; the client's abort or close() ends the exchange.
  }

  function playJsonFault(
    response: ServerResponse,
    entry: MutableRecord,
    fault: Exclude<Fault, { kind: "http" }>,
    json: unknown,
    headers: Record<string, string>,
  ): void {
    if (fault.kind === "stall") {
      entry.status = 200;
      response.writeHead(200, { "content-type": "application/json", ...headers });
      return;
    }
    const text = JSON.stringify(json);
    entry.status = 200;
    response.writeHead(200, { "content-type": "application/json", ...headers });
    const half = text.slice(0, Math.floor(text.length / 2));
    if (fault.kind === "cut" || fault.kind === "stream-error") {
      // Let the headers and the first half leave before the connection drops.
      response.write(half, () => {
        entry.endedByServer = true;
        response.socket?.destroy();
      });
    } else {
      response.end(half);
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.warn(`provider stand-in: ${errorMessage(error)}`);
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ error: { message: "stand-in failure", type: "server_error" } }),
        );
      } else {
        response.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: `${url}/v1`,
    apiKey,
    requests,
    respondWith(replies) {
      if (typeof replies === "function") responder = replies;
      else queue.push(...replies);
    },
    injectFault(fault, target) {
      faults.add(fault, target);
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(requests) }));
    },
    async close() {
      for (const entry of openRecords) entry.endedByServer = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function answer(response: ServerResponse, entry: MutableRecord, reply: HttpAnswer): void {
  if (connectionGone(response)) return;
  entry.status = reply.status;
  response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
  response.end(JSON.stringify(reply.body));
}

/**
 * @returns true when the client went, or close() ran, while a held responder was deciding. The
 * socket knows at once; the response learns it only on its `close` event.
 */
function connectionGone(response: ServerResponse): boolean {
  return response.destroyed || response.socket === null || response.socket.destroyed;
}

function notFound(method: string, path: string): HttpAnswer {
  return openaiError(404, {
    message: `Invalid URL (${method} ${path})`,
    type: "invalid_request_error",
  });
}

function tooLarge(): HttpAnswer {
  return openaiError(413, { message: "Request body too large.", type: "invalid_request_error" });
}

/** @returns the body as text, or undefined when it is larger than the limit. */
async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
