import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { AuditActor } from '../audit/audit-event';
import { ApiError, messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { PageQueryDto, pageRequest, PAGING_ERRORS, toPage } from '../common/paging';
import { TenantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TENANT_ERRORS } from './admin-tenants.messages';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantListResponse, TenantResponse, toTenantResponse } from './dto/tenant.response';
import { ListedTenant, TenantListKey, TenantsStore } from './tenants.store';

export const TENANT_INITIAL_STATUS: TenantStatus = 'pending_owner';

/** Rows per read of the streamed list (spec 4.3): what one list holds in memory at a time. */
export const TENANT_LIST_BATCH = 2_000;

/** A cursor's time, as the list writes it. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const logger = new Logger('AdminTenantsService');

/** Resolves once `chunk` has left for the socket, or at once when the connection is gone. */
function sent(response: Response, chunk: string): Promise<void> {
  if (response.write(chunk) || response.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Spec 4.3 and 4.4; other failures are the routes' @FailureResponse. */
@Injectable()
export class AdminTenantsService {
  constructor(
    private readonly tenants: TenantsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * Spec 4.3's answer, `{"tenants":[…]}`, written to `response` as it is read: TENANT_LIST_BATCH
   * rows at a time, a batch read while the one before it is sent and used once that one has left
   * for the socket (a slow reader holds the reads back), so that the memory that a list holds
   * does not follow the number of tenants. A failure of the first read is the spec's 500; a later one can no longer change the
   * status that was sent: it is logged and the connection is cut, so that the client sees a
   * truncated body, never a short list taken for a whole one.
   */
  async stream(statuses: TenantStatus[] | undefined, response: Response): Promise<void> {
    let rows = await this.read(statuses, undefined, TENANT_LIST_BATCH);
    response.status(HttpStatus.OK).type('application/json');
    let separator = '{"tenants":[';
    for (;;) {
      // The next batch is read while this one is sent: two batches at most are held.
      const last = rows[rows.length - 1];
      const next =
        rows.length === TENANT_LIST_BATCH
          ? this.tenants.list(statuses, { createdAt: last.createdAt, id: last.id }, TENANT_LIST_BATCH).then(
              (read) => ({ read }),
              (error: unknown) => ({ error }),
            )
          : undefined;
      if (rows.length) {
        // One stringify of the batch, its brackets dropped: the rows as res.json writes them, comma-separated.
        await sent(response, separator + JSON.stringify(rows).slice(1, -1));
        separator = ',';
      }
      if (!next || response.destroyed) break;
      const outcome = await next;
      if ('error' in outcome) {
        logger.error(`${TENANT_ERRORS.fetchFailed} after part of the list was sent: ${messageOf(outcome.error)}`);
        response.destroy();
        return;
      }
      rows = outcome.read;
    }
    response.end(separator === ',' ? ']}' : '{"tenants":[]}');
  }

  /** A page of the list (`?limit=&cursor=`), the way to read a large one: `nextCursor` while more follow. */
  async page(statuses: TenantStatus[] | undefined, query: PageQueryDto): Promise<TenantListResponse> {
    const request = pageRequest(query, 2);
    const after = request.after && { createdAt: request.after[0], id: request.after[1] };
    if (after && !ISO_TIMESTAMP.test(after.createdAt))
      throw new ApiError(HttpStatus.BAD_REQUEST, PAGING_ERRORS.invalidCursor);
    const page = toPage(await this.read(statuses, after, request.limit + 1), request, (row) => [row.createdAt, row.id]);
    return { tenants: page.items, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
  }

  /** Spec 4.3: a failure when fetching has a message of its own. */
  private async read(
    statuses: TenantStatus[] | undefined,
    after: TenantListKey | undefined,
    take: number,
  ): Promise<ListedTenant[]> {
    try {
      return await this.tenants.list(statuses, after, take);
    } catch (error) {
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, TENANT_ERRORS.fetchFailed, error);
    }
  }

  /**
   * Spec 4.4 rules 5–6; rules 1–4 ran in the guards and the body pipe. The actor is null when
   * the operator CLI creates the tenant.
   */
  async create(dto: CreateTenantDto, actor: AuditActor | null): Promise<{ success: true; tenant: TenantResponse }> {
    const tenant: TenantEntity = {
      id: this.ids.uuid(),
      name: dto.name,
      type: dto.type,
      status: TENANT_INITIAL_STATUS,
      createdAt: this.clock.now(),
    };
    await this.tenants.create(tenant, actor);
    return { success: true, tenant: toTenantResponse(tenant) };
  }
}
