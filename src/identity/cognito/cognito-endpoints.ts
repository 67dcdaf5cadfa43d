import { CognitoConfig } from '../../config/identity-config';

/**
 * Where the pool's id tokens come from. With COGNITO_ENDPOINT set
 * (an emulator such as cognito-local), issuer and keys live under that endpoint.
 */
export function cognitoIssuer(cognito: CognitoConfig): string {
  const base = cognito.endpoint ?? `https://cognito-idp.${cognito.region}.amazonaws.com`;
  return `${base}/${cognito.userPoolId}`;
}

export function cognitoJwksUri(cognito: CognitoConfig): string {
  return `${cognitoIssuer(cognito)}/.well-known/jwks.json`;
}
