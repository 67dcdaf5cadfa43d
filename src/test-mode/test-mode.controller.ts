import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Query, UseGuards } from '@nestjs/common';
import { DtoPipe } from '../common/validate-body';
import { ClockChangeRequest, MailboxQuery, RemoveTenantsQuery, TestSessionRequest } from './dto/test-mode.requests';
import {
  ApiChangeClock,
  ApiClearRateLimits,
  ApiIssueTestSession,
  ApiReadMailbox,
  ApiRemoveTenants,
  ApiTestMode,
} from './test-mode.docs';
import { TestModeKeyGuard } from './test-mode.guard';
import { TestModeService } from './test-mode.service';

/** The routes of test mode (docs/test-mode.md), registered only when TEST_MODE=true. The key first. */
@Controller('api/test')
@ApiTestMode()
@UseGuards(TestModeKeyGuard)
export class TestModeController {
  constructor(private readonly service: TestModeService) {}

  @Get('mailbox')
  @ApiReadMailbox()
  readTestMailbox(@Query(DtoPipe(MailboxQuery)) query: MailboxQuery) {
    return this.service.mailbox(query.to);
  }

  @Post('sessions')
  @HttpCode(HttpStatus.OK)
  @ApiIssueTestSession()
  issueTestSession(@Body(DtoPipe(TestSessionRequest)) body: TestSessionRequest) {
    return this.service.session(body);
  }

  @Post('clock')
  @HttpCode(HttpStatus.OK)
  @ApiChangeClock()
  changeTestClock(@Body(DtoPipe(ClockChangeRequest)) body: ClockChangeRequest) {
    return this.service.changeClock(body);
  }

  @Delete('rate-limits')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiClearRateLimits()
  clearTestRateLimits() {
    return this.service.clearRateLimits();
  }

  @Delete('tenants')
  @ApiRemoveTenants()
  removeTestTenants(@Query(DtoPipe(RemoveTenantsQuery)) query: RemoveTenantsQuery) {
    return this.service.removeTenants(query.namePrefix);
  }
}
