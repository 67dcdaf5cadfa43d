/** The Cognito store's accounts: made without an invitation message, signed out everywhere, deleted. */

import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminUserGlobalSignOutCommand,
  AliasExistsException,
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { AccountExistsError } from '../identity-store';
import { COGNITO_ATTRIBUTES } from './cognito-attributes';

export class CognitoAccounts {
  private poolSignsInByEmail?: Promise<boolean>;

  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  /**
   * AdminCreateUser without an invitation message (MessageAction SUPPRESS): the address verified,
   * no tenant yet. A pool that signs in by e-mail (`UsernameAttributes` with `email`, Amplify's
   * default) takes the address as the Username and names the user itself (its `sub`): that name is
   * the account's id. A pool with separate usernames takes `id`.
   */
  async create(id: string, email: string): Promise<string> {
    const address = email.toLowerCase();
    try {
      const created = await this.client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.userPoolId,
          Username: (await this.signsInByEmail()) ? address : id,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: COGNITO_ATTRIBUTES.email, Value: address },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      return created.User?.Username ?? id;
    } catch (error) {
      if (error instanceof UsernameExistsException || error instanceof AliasExistsException)
        throw new AccountExistsError();
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: id }));
  }

  /** AdminUserGlobalSignOut: the pool's refresh tokens of the user are revoked. */
  async signOutEverywhere(id: string): Promise<void> {
    await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.userPoolId, Username: id }));
  }

  /** Whether the pool signs in by e-mail: read once (DescribeUserPool), again only after a failed read. */
  signsInByEmail(): Promise<boolean> {
    this.poolSignsInByEmail ??= this.client
      .send(new DescribeUserPoolCommand({ UserPoolId: this.userPoolId }))
      .then((described) => described.UserPool?.UsernameAttributes?.includes('email') ?? false);
    this.poolSignsInByEmail.catch(() => (this.poolSignsInByEmail = undefined));
    return this.poolSignsInByEmail;
  }
}
