import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayContains,
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import { ReasonedBodyPipe, validateReasonedBody } from '../../common/coded-body';
import { TOKEN_ENDPOINT_AUTH_METHODS, TokenEndpointAuthMethod } from '../../database/entities/sso.entity';
import { EMAIL } from '../sso-protocol';
import { SSO_ERRORS } from '../sso.messages';

/*
 * The bodies of single sign-on's API routes (docs/sso.md). Each field's rules are declared once
 * below, in the order they run (applyDecorators applies them first to last, and validateBody runs
 * the first applied first); each message is the refusal's `reason` (ReasonedBodyPipe). Properties are
 * checked in declaration order, so a body with several faults is answered with the first one.
 */

/** The roles a connection may give at a first sign-in: never owner. */
export const SSO_DEFAULT_ROLES = ['member', 'admin'] as const;
const CONNECTION_TYPES = ['oidc', 'saml'] as const;
/** The most metadata an owner may paste (an IdP's with a few certificates is a few kilobytes). */
const MAX_METADATA_CHARS = 512 * 1024;
const MAX_SCOPES = 20;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

/** The reason of a connection body that is not a JSON object. */
export const NOT_AN_OBJECT_REASON = 'the body must be a JSON object';

/** The field's rules run when it is given: null is given, and refused as any other wrong value. */
const WhenGiven = () => ValidateIf((_, value) => value !== undefined);

/** A field that must be given, refused with `message` when it is not. */
const Given = (message: string) =>
  ValidateBy({ name: 'given', validator: { validate: (value) => value !== undefined } }, { message });

/** Some text, not blank, of at most `max` UTF-16 units. */
const Text = (max: number) =>
  ValidateBy(
    {
      name: 'text',
      validator: {
        validate: (value) => typeof value === 'string' && value.trim() !== '' && value.length <= max,
      },
    },
    { message: `$property must be a string of 1 to ${max} characters` },
  );

const HttpUrl = () =>
  ValidateBy(
    {
      name: 'httpUrl',
      validator: {
        validate: (value) => URL.canParse(value as string) && /^https?:$/.test(new URL(value as string).protocol),
      },
    },
    { message: '$property must be an http or https URL' },
  );

const Flag = () => IsBoolean({ message: '$property must be true or false' });

const NameField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 200, description: 'Default from the provider' }),
    WhenGiven(),
    Text(200),
  );
const JitField = () => applyDecorators(ApiPropertyOptional({ description: 'Default true' }), WhenGiven(), Flag());
const DefaultRoleField = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: SSO_DEFAULT_ROLES, description: 'Default member' }),
    WhenGiven(),
    IsIn(SSO_DEFAULT_ROLES, { message: 'defaultRole must be "member" or "admin" (never owner)' }),
  );
const AllowIdpInitiatedField = () =>
  applyDecorators(ApiPropertyOptional({ description: 'Default false' }), WhenGiven(), Flag());

/** OIDC's issuer: its discovery document is read at `{issuer}/.well-known/openid-configuration`. */
const issuerDoc = { maxLength: 500, example: 'https://acme.okta.com' };
const IssuerRules = () => applyDecorators(Text(500), HttpUrl());
const clientIdDoc = { maxLength: 255 };
const ClientIdRule = () => Text(255);

const TokenEndpointAuthMethodField = () =>
  applyDecorators(
    ApiPropertyOptional({
      enum: TOKEN_ENDPOINT_AUTH_METHODS,
      description:
        'OIDC: how the client secret goes to the token endpoint; default client_secret_basic when the discovery ' +
        'document offers it (or lists no method), else client_secret_post',
    }),
    WhenGiven(),
    IsIn(TOKEN_ENDPOINT_AUTH_METHODS, {
      message: 'tokenEndpointAuthMethod must be "client_secret_basic" or "client_secret_post"',
    }),
  );

/** OIDC's client secret: stored sealed, never answered. */
const clientSecretDoc = { maxLength: 1000, description: 'OIDC: stored encrypted (AES-256-GCM), never returned' };
const ClientSecretRule = () => Text(1000);

const SCOPES_REFUSAL = `scopes must be an array of up to ${MAX_SCOPES} scope tokens (or one space-separated string)`;
/** An array of scope tokens or one space-separated string; openid always among them. */
const ScopesField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      maxItems: MAX_SCOPES,
      description: 'OIDC: default openid email profile; or one space-separated string',
    }),
    Transform(({ value }) => (typeof value === 'string' ? value.split(' ').filter(Boolean) : value)),
    WhenGiven(),
    IsArray({ message: SCOPES_REFUSAL }),
    ArrayMinSize(1, { message: SCOPES_REFUSAL }),
    ArrayMaxSize(MAX_SCOPES, { message: SCOPES_REFUSAL }),
    Matches(SCOPE, { each: true, message: SCOPES_REFUSAL }),
    ArrayContains(['openid'], { message: 'scopes must include openid' }),
  );

const MetadataXmlField = () =>
  applyDecorators(
    ApiPropertyOptional({
      maxLength: MAX_METADATA_CHARS,
      description: 'SAML: the IdP’s metadata, pasted (this or metadataUrl)',
    }),
    WhenGiven(),
    Text(MAX_METADATA_CHARS),
  );
const metadataUrlDoc = {
  maxLength: 2048,
  description: 'SAML: where the IdP’s metadata is read (refresh reads it again)',
};
/** The address of SAML's metadata, once the pasted metadata (declared before it) passed: one of the two. */
const MetadataUrlRules = () =>
  applyDecorators(
    Text(2048),
    ValidateBy(
      {
        name: 'notBoth',
        validator: {
          validate: (_, args: ValidationArguments) => (args.object as SamlMetadataFields).metadataXml === undefined,
        },
      },
      { message: 'give metadataXml or metadataUrl, not both' },
    ),
    HttpUrl(),
  );
const WantAssertionsSignedField = () =>
  applyDecorators(
    ApiPropertyOptional({ description: 'SAML: the assertion itself must be signed; default true' }),
    WhenGiven(),
    Flag(),
  );

interface SamlMetadataFields {
  metadataXml?: string;
  metadataUrl?: string;
}

/**
 * The fields of one protocol, read for a body of that type. Any other type is refused on `type`,
 * declared first, so OIDC's are read unless the body is SAML's.
 */
const ForOidc = () => ValidateIf((body: CreateConnectionBody) => body.type !== 'saml');
const ForSaml = () => ValidateIf((body: CreateConnectionBody) => body.type === 'saml');

/**
 * What both protocols' connections have. A class's own fields are checked before those it
 * inherits, and the inherited in the order their classes were declared.
 */
class ConnectionSettings {
  @NameField()
  name?: string;

  @JitField()
  jit?: boolean;

  @DefaultRoleField()
  defaultRole?: (typeof SSO_DEFAULT_ROLES)[number];

  @AllowIdpInitiatedField()
  allowIdpInitiated?: boolean;
}

/** POST /api/org/sso/connections: `type` "oidc" or "saml", and that protocol's fields; the other's are not read. */
export class CreateConnectionBody extends ConnectionSettings implements SamlMetadataFields {
  @ApiProperty({ enum: CONNECTION_TYPES })
  @IsIn(CONNECTION_TYPES, { message: 'type must be "oidc" or "saml"' })
  type: (typeof CONNECTION_TYPES)[number];

  @ApiPropertyOptional({ ...issuerDoc, description: 'OIDC: required' })
  @ForOidc()
  @applyDecorators(Given('issuer must be an http or https URL'), IssuerRules())
  issuer?: string;

  @ApiPropertyOptional({ ...clientIdDoc, description: 'OIDC: required' })
  @ForOidc()
  @applyDecorators(Given('clientId is required'), ClientIdRule())
  clientId?: string;

  @ApiPropertyOptional({ ...clientSecretDoc, description: `${clientSecretDoc.description}; OIDC: required` })
  @ForOidc()
  @applyDecorators(Given('clientSecret is required'), ClientSecretRule())
  clientSecret?: string;

  @ForOidc()
  @ScopesField()
  scopes?: string[];

  @ForOidc()
  @TokenEndpointAuthMethodField()
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;

  @ForSaml()
  @MetadataXmlField()
  metadataXml?: string;

  /** Read when given, or when the pasted metadata is not: a SAML connection needs one of them. */
  @ApiPropertyOptional(metadataUrlDoc)
  @ForSaml()
  @ValidateIf((body: CreateConnectionBody) => body.metadataUrl !== undefined || body.metadataXml === undefined)
  @applyDecorators(Given('a SAML connection needs metadataXml or metadataUrl'), MetadataUrlRules())
  metadataUrl?: string;

  @ForSaml()
  @WantAssertionsSignedField()
  wantAssertionsSigned?: boolean;
}

/** What PATCH may change beside the status and the primary: the settings first, then each protocol's. */
class ConnectionChanges extends ConnectionSettings implements SamlMetadataFields {
  @ApiPropertyOptional({ ...issuerDoc, description: 'OIDC: another issuer, whose discovery document is read' })
  @WhenGiven()
  @IssuerRules()
  issuer?: string;

  @ApiPropertyOptional(clientIdDoc)
  @WhenGiven()
  @ClientIdRule()
  clientId?: string;

  @ApiPropertyOptional(clientSecretDoc)
  @WhenGiven()
  @ClientSecretRule()
  clientSecret?: string;

  @ScopesField()
  scopes?: string[];

  @TokenEndpointAuthMethodField()
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;

  @MetadataXmlField()
  metadataXml?: string;

  @ApiPropertyOptional(metadataUrlDoc)
  @WhenGiven()
  @MetadataUrlRules()
  metadataUrl?: string;

  @WantAssertionsSignedField()
  wantAssertionsSigned?: boolean;
}

/** PATCH /api/org/sso/connections/{id}: the fields given change (at least one, the service's rule). */
export class UpdateConnectionBody extends ConnectionChanges {
  @ApiPropertyOptional({ enum: ['active', 'inactive'] })
  @WhenGiven()
  @IsIn(['active', 'inactive'], { message: 'status must be "active" or "inactive"' })
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({
    type: 'boolean',
    enum: [true],
    description: 'true: this active connection becomes the primary (the one discovery uses)',
  })
  @WhenGiven()
  @Equals(true, { message: 'primary must be true: to change the primary, make another connection primary' })
  primary?: true;
}

export const ENFORCEMENT_REFUSAL = 'the body must be {"enforced": true|false}';

/** PATCH /api/org/sso: `enforced`, and no other field. */
export class SetEnforcementBody {
  @ApiProperty()
  // Another field makes the body no enforcement at all: refused as a missing one is.
  @Transform(({ value, obj }) => (Object.keys(obj).every((key) => key === 'enforced') ? value : undefined))
  @IsBoolean({ message: ENFORCEMENT_REFUSAL })
  enforced: boolean;
}

/** POST /api/org/sso/connections' body, after the guards: its first failed rule as 400 SSO_CONNECTION_INVALID. */
export const CreateConnectionPipe = ReasonedBodyPipe(CreateConnectionBody, SSO_ERRORS.invalid, NOT_AN_OBJECT_REASON);

/** The same check for PATCH /api/org/sso/connections/{id}, after its look-up (an unknown id is 404 whatever the body). */
export const validateConnectionPatch = (body: unknown): UpdateConnectionBody =>
  validateReasonedBody(UpdateConnectionBody, body, SSO_ERRORS.invalid, NOT_AN_OBJECT_REASON);

/** PATCH /api/org/sso's body, after the guards: anything but `{"enforced": true|false}` is 400 SSO_ENFORCEMENT_INVALID. */
export const SetEnforcementPipe = ReasonedBodyPipe(
  SetEnforcementBody,
  SSO_ERRORS.enforcementInvalid,
  ENFORCEMENT_REFUSAL,
);

export const EMAIL_REFUSAL = 'email must be an e-mail address';

/** POST /api/sso/discover's body, and GET /sso/start's `email`: an address, trimmed and lower-cased. */
export class DiscoverBody {
  @ApiProperty({ example: 'kim@acme.com' })
  @Transform(({ value }) =>
    typeof value === 'string' && EMAIL.test(value.trim()) ? value.trim().toLowerCase() : value,
  )
  @IsString({ message: EMAIL_REFUSAL })
  @Matches(EMAIL, { message: EMAIL_REFUSAL })
  email: string;
}

/** The address of a discovery or a start: anything else is 400 SSO_EMAIL_INVALID. */
export const validateDiscoverBody = (body: unknown): DiscoverBody =>
  validateReasonedBody(DiscoverBody, body, SSO_ERRORS.emailInvalid, EMAIL_REFUSAL);

/** POST /api/sso/discover's body, after the guards (the rate limit first). */
export const DiscoverPipe = ReasonedBodyPipe(DiscoverBody, SSO_ERRORS.emailInvalid, EMAIL_REFUSAL);
