/**
 * The user record's attributes (docs/cognito.md, "The user pool"): how the pool's `email` and
 * `custom:*` attributes read as an IdentityUser, and CognitoAttributes, which writes them.
 */

import {
  AdminDeleteUserAttributesCommand,
  AdminUpdateUserAttributesCommand,
  AttributeType,
  CognitoIdentityProviderClient,
  UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { IdentityUser } from '../identity-store';

/** The pool attributes of the user record. */
export const COGNITO_ATTRIBUTES = {
  email: 'email',
  platformRole: 'custom:platform_role',
  userType: 'custom:user_type',
  tenantId: 'custom:tenant_id',
  role: 'custom:role',
} as const;

export function attributeValue(attributes: AttributeType[] | undefined, name: string): string | null {
  const value = attributes?.find((attribute) => attribute.Name === name)?.Value;
  return value ? value : null;
}

export function toIdentityUser(username: string, attributes: AttributeType[] | undefined): IdentityUser {
  return {
    id: username,
    // Stored lower-cased (docs/cognito.md); lower-cased on read as well, so that a mixed-case
    // address already in the pool still compares equal to the one the API was given.
    email: (attributeValue(attributes, COGNITO_ATTRIBUTES.email) ?? '').toLowerCase(),
    platformRole: attributeValue(attributes, COGNITO_ATTRIBUTES.platformRole),
    userType: attributeValue(attributes, COGNITO_ATTRIBUTES.userType),
    tenantId: attributeValue(attributes, COGNITO_ATTRIBUTES.tenantId),
    role: attributeValue(attributes, COGNITO_ATTRIBUTES.role),
  };
}

/** A user as ListUsers and ListUsersInGroup answer it. */
export const fromListing = (user: UserType): IdentityUser => toIdentityUser(user.Username ?? '', user.Attributes);

/** Writes a user's attributes. */
export class CognitoAttributes {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  /** Sets `attributes`; the user's others stay as they are. */
  async set(id: string, attributes: AttributeType[]): Promise<void> {
    await this.client.send(
      new AdminUpdateUserAttributesCommand({ UserPoolId: this.userPoolId, Username: id, UserAttributes: attributes }),
    );
  }

  /** Deletes the tenant and the role: the account stays, in no tenant. */
  async clearTenant(id: string): Promise<void> {
    await this.client.send(
      new AdminDeleteUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributeNames: [COGNITO_ATTRIBUTES.tenantId, COGNITO_ATTRIBUTES.role],
      }),
    );
  }
}
