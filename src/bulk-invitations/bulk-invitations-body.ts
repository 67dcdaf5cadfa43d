import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../common/api-error';
import { MalformedCsvError, parseCsv } from '../common/csv';
import { AppConfig } from '../config/app-config';
import { BulkInvitationsBody, BulkInvitationsRequest } from './dto/bulk-invitations.dto';
import { BULK_INVITATION_ERRORS } from './bulk-invitations.messages';

/**
 * Reads the body, JSON or CSV (csvBodyParser leaves the latter as text), into one shape,
 * BulkInvitationsBody, and refuses a request that is not a list of rows: 400, or 413 over
 * BULK_INVITE_MAX_ROWS. The rows themselves are checked one by one later. A guard, listed before
 * IdempotencyGuard, so that a key's request is its rows and dry-run flag, whichever form carried them.
 */
@Injectable()
export class BulkInvitationsBodyGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const fromQuery = dryRunOf(request.query.dryRun);
    const body: BulkInvitationsRequest =
      typeof request.body === 'string' ? fromCsv(request.body) : fromJson(request.body);
    if (!body.invitations.length) throw new ApiError(HttpStatus.BAD_REQUEST, BULK_INVITATION_ERRORS.empty);
    const max = this.config.bulkInviteMaxRows;
    if (body.invitations.length > max)
      throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, BULK_INVITATION_ERRORS.tooMany(max));
    const normalized: BulkInvitationsBody = {
      invitations: body.invitations,
      dryRun: body.dryRun === true || fromQuery === true,
    };
    request.body = normalized;
    return true;
  }
}

function fromJson(body: unknown): BulkInvitationsRequest {
  const { invitations, dryRun } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!Array.isArray(invitations)) throw new ApiError(HttpStatus.BAD_REQUEST, BULK_INVITATION_ERRORS.notAList);
  if (dryRun !== undefined && typeof dryRun !== 'boolean')
    throw new ApiError(HttpStatus.BAD_REQUEST, BULK_INVITATION_ERRORS.invalidDryRun);
  return { invitations, dryRun };
}

/**
 * A header naming `email` and `role` (any order, any case), and optionally `roles` (custom roles,
 * separated by spaces or semicolons: docs/roles.md); other columns are ignored. Then one row per
 * record. Cells are trimmed: a paste from a spreadsheet often has a space after the comma.
 */
function fromCsv(text: string): BulkInvitationsRequest {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof MalformedCsvError)
      throw new ApiError(HttpStatus.BAD_REQUEST, `${BULK_INVITATION_ERRORS.malformedCsv}: ${error.message}`);
    throw error;
  }
  const header = (records[0] ?? []).map((name) => name.trim().toLowerCase());
  const [emailAt, roleAt, rolesAt] = [header.indexOf('email'), header.indexOf('role'), header.indexOf('roles')];
  if (emailAt < 0 || roleAt < 0) throw new ApiError(HttpStatus.BAD_REQUEST, BULK_INVITATION_ERRORS.csvHeader);
  return {
    invitations: records.slice(1).map((record) => ({
      email: record[emailAt]?.trim() ?? '',
      role: record[roleAt]?.trim() ?? '',
      ...(rolesAt >= 0 && { roles: (record[rolesAt] ?? '').split(/[\s;]+/).filter(Boolean) }),
    })),
  };
}

/** `?dryRun=true` or `false`; anything else is 400. */
function dryRunOf(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ApiError(HttpStatus.BAD_REQUEST, BULK_INVITATION_ERRORS.invalidDryRun);
}
