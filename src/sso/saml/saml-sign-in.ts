import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { SsoConnectionEntity } from '../../database/entities';
import {
  CallbackVerdict,
  EMAIL,
  failedCheck,
  RequestSecrets,
  refusedWith,
  returnRefused,
  returnToOf,
  single,
  SsoProtocol,
  VerifiedPerson,
} from '../sso-protocol';
import { SsoSignInsStore } from '../sso-sign-ins.store';
import { samlEndpointsOf, samlPostPageOf } from '../sso-views';
import { SSO_ERRORS } from '../sso.messages';
import { SamlAssertion } from './saml-assertion';
import { SamlClient, SamlSettings } from './saml-client';
import { SAML_REASONS } from './saml.messages';
import { SamlCheckFailed } from './saml-xml';
import { IdpMetadata } from './saml-metadata';
import { SamlPostForm } from './saml-post-page';

const assertionInvalid = (reason: string) => failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.assertionInvalid, reason);

/**
 * SAML's side of a sign-in (docs/sso.md, "Signing in", step 3): the AuthnRequest, and the assertion
 * consumer service's checks in order: the response's (SamlClient), an e-mail, the assertion remembered on every
 * instance (a replay, or the second of two copies at once: 409 SSO_REPLAYED), then the request it
 * answers used once; an unsolicited response, where the connection allows one, returns to its
 * RelayState by the returnTo rule.
 */
@Injectable()
export class SamlSignIn implements SsoProtocol<SamlAcsForm> {
  readonly type = 'saml';

  constructor(
    private readonly client: SamlClient,
    private readonly signIns: SsoSignInsStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The AuthnRequest's ID is the pending request's key, which the response's InResponseTo names. */
  newRequestSecrets(): RequestSecrets {
    return { state: this.client.newRequestId(), nonce: '', codeVerifier: '' };
  }

  /** A provider that takes HTTP-POST only gets the AuthnRequest from a page of ours that posts it (postForm). */
  async providerAddress(connection: SsoConnectionEntity, { state }: RequestSecrets, base: string): Promise<string> {
    const settings = this.settings(connection, base);
    if (settings.idp.ssoBinding === 'post') return samlPostPageOf(base, connection.id, state);
    return (await this.client.authorizeUrl(settings, state, state)).href;
  }

  /** The form that carries the AuthnRequest of the pending sign-in `requestId` to the provider. */
  postForm(connection: SsoConnectionEntity, requestId: string, base: string): Promise<SamlPostForm> {
    return this.client.authorizeForm(this.settings(connection, base), requestId, requestId);
  }

  serviceProviderMetadata(connection: SsoConnectionEntity, base: string): string {
    return this.client.serviceProviderMetadata(this.settings(connection, base));
  }

  claimedRequest(form: SamlAcsForm): string | undefined {
    const samlResponse = single(form.SAMLResponse);
    return samlResponse === undefined ? undefined : (this.client.claimedRequest(samlResponse) ?? undefined);
  }

  async verify(connection: SsoConnectionEntity, form: SamlAcsForm, base: string): Promise<CallbackVerdict> {
    const samlResponse = single(form.SAMLResponse);
    if (!samlResponse) return refusedWith(assertionInvalid(SAML_REASONS.missing));
    // Whether the response answers a test: known once node-saml asks for the request it names.
    let test = false;
    let assertion: SamlAssertion;
    try {
      assertion = await this.client.validate(this.settings(connection, base), samlResponse, async (requestId) => {
        const request = await this.signIns.findRequest(requestId);
        if (request?.connectionId !== connection.id) return null;
        test = request.purpose === 'test';
        return request.createdAt;
      });
    } catch (error) {
      if (!(error instanceof SamlCheckFailed)) throw error;
      const code = error.idpError ? SSO_ERRORS.idpError : SSO_ERRORS.assertionInvalid;
      return refusedWith(failedCheck(HttpStatus.BAD_REQUEST, code, error.message.slice(0, 900)), { test });
    }
    const { id, subject, email, groups, inResponseTo } = assertion;
    const known = { subject, email, test };
    if (!email || !EMAIL.test(email)) return refusedWith(assertionInvalid(SAML_REASONS.noEmail), known);
    const expiresAt = new Date(assertion.notOnOrAfter.getTime() + this.config.sso.clockSkewSeconds * 1000);
    if (
      !(await this.signIns.rememberAssertion(
        { connectionId: connection.id, assertionId: id, expiresAt },
        this.clock.now(),
      ))
    )
      return refusedWith(
        failedCheck(HttpStatus.CONFLICT, SSO_ERRORS.replayed, SAML_REASONS.replayed(id.slice(0, 100))),
        known,
      );
    let request: Pick<VerifiedPerson, 'purpose' | 'returnTo'>;
    if (inResponseTo !== null) {
      const used = await this.signIns.useRequest(inResponseTo, connection.id, this.clock.now());
      if ('unusable' in used)
        return refusedWith(
          assertionInvalid(SAML_REASONS.requestUnusable(inResponseTo.slice(0, 100), used.unusable)),
          known,
        );
      request = used.request;
    } else {
      const returnTo = returnToOf(single(form.RelayState), this.config, base);
      if (returnTo === null) return refusedWith(returnRefused(), known);
      request = { purpose: 'sign_in', returnTo };
    }
    const { purpose, returnTo } = request;
    return { person: { connection, subject, email: email.toLowerCase(), sentEmail: email, groups, purpose, returnTo } };
  }

  private settings(connection: SsoConnectionEntity, base: string): SamlSettings {
    const { entityId, acsUrl } = samlEndpointsOf(base, connection.id);
    return {
      idp: JSON.parse(connection.discovery) as IdpMetadata,
      spEntityId: entityId,
      acsUrl,
      wantAssertionsSigned: connection.wantAssertionsSigned === 1,
      allowIdpInitiated: connection.allowIdpInitiated === 1,
      clockSkewMs: this.config.sso.clockSkewSeconds * 1000,
    };
  }
}

/** The assertion consumer service's form as the browser posted it. */
export type SamlAcsForm = Record<string, unknown>;
