import { HttpException, HttpStatus } from '@nestjs/common';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** RFC 7644 section 3.12's scimType values that this service answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'tooMany';

/** The SCIM error body: `status` is a string (RFC 7644 section 3.12). */
export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

export const scimErrorBody = (status: number, detail: string, scimType?: ScimType): ScimErrorBody => ({
  schemas: [SCIM_ERROR_SCHEMA],
  status: String(status),
  ...(scimType && { scimType }),
  detail,
});

/** An error that already carries the SCIM body. */
export class ScimError extends HttpException {
  constructor(status: number, detail: string, scimType?: ScimType, cause?: unknown) {
    super(scimErrorBody(status, detail, scimType), status, { cause });
  }
}

export const SCIM_MESSAGES = {
  unauthorized: 'A valid SCIM bearer token is required',
  suspended: 'Organisation is suspended',
  deleted: 'Organisation is deleted',
  rateLimited: 'Too many SCIM requests. Please try again later.',
  userNotFound: 'User not found',
  groupNotFound: 'Group not found',
  userNameTaken: 'A user with this userName already exists',
  addressTaken: 'Another account holds this e-mail address',
  groupNameTaken: 'A group with this displayName already exists',
  lastOwner: 'The last owner of the organisation cannot be demoted or deactivated by SCIM',
  ownersChanging: "The organisation's members are changing: try again",
  notFound: 'No such SCIM endpoint',
  rootSearch: 'Searching every resource type at once is not supported: POST /Users/.search or /Groups/.search',
  internal: 'Internal server error',
} as const;

/** Any error as a SCIM error: status, and our detail or a generic one; never a stack trace. */
export function toScimError(exception: unknown): { status: number; body: ScimErrorBody } {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && (response as ScimErrorBody).schemas?.[0] === SCIM_ERROR_SCHEMA)
      return { status, body: response as ScimErrorBody };
    const message =
      typeof response === 'string'
        ? response
        : ((response as { error?: unknown; message?: unknown }).error ??
          (response as { message?: unknown }).message ??
          exception.message);
    const detail = Array.isArray(message) ? message.join('; ') : String(message);
    if (status === HttpStatus.NOT_FOUND && /^Cannot /.test(detail))
      return { status, body: scimErrorBody(status, SCIM_MESSAGES.notFound) };
    return { status, body: scimErrorBody(status, detail) };
  }
  const status = (exception as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, body: scimErrorBody(status, 'Bad request') };
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: scimErrorBody(HttpStatus.INTERNAL_SERVER_ERROR, SCIM_MESSAGES.internal),
  };
}
