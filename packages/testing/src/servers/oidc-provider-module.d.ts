// The part of oidc-provider 9 (which ships no types) that the test providers use.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** An interaction in progress (the provider's sign-in or consent prompt). */
  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    grantId?: string;
    session?: { accountId: string };
  }

  /** The provider's ID token model; its `issue` is wrapped by the audience fault. */
  export interface IdTokenClass {
    prototype: {
      issue(this: unknown, options: { use?: string }): Promise<string>;
    };
  }

  /** A grant: what an account allowed a client. */
  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** The grant model. */
  export interface GrantClass {
    new (fields: { clientId: string; accountId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
    adapter: { destroy(id: string): Promise<void> };
  }

  /** A token model (access token, refresh token, authorization code). */
  export interface TokenModelClass {
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** The part of the koa context a middleware of the provider reads. */
  export interface ProviderMiddlewareContext {
    method: string;
    path: string;
    status: number;
    body: unknown;
    get(header: string): string;
    oidc?: {
      route?: string;
      body?: Record<string, unknown>;
      client?: { clientId: string };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly IdToken: IdTokenClass;
    readonly Grant: GrantClass;
    readonly AccessToken: TokenModelClass;
    readonly RefreshToken: TokenModelClass;
    readonly AuthorizationCode: TokenModelClass;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(
      middleware: (context: ProviderMiddlewareContext, next: () => Promise<void>) => Promise<void>,
    ): this;
    on(event: string, listener: (...parameters: never[]) => void): this;
    interactionDetails(
      request: IncomingMessage,
      response: ServerResponse,
    ): Promise<InteractionDetails>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  /** The provider's OAuth error classes. */
  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };
}
