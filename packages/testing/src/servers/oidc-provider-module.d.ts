// The part of oidc-provider 9 (which ships no types) that the test provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** An interaction in progress (the provider's sign-in prompt). */
  interface InteractionDetails {
    uid: string;
  }

  /** The provider's ID token model; its `issue` is wrapped by the audience fault. */
  interface IdTokenClass {
    prototype: {
      issue(this: unknown, options: { use?: string }): Promise<string>;
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly IdToken: IdTokenClass;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
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
}
