import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SharedClockOffset } from './shared-clock-offset';
import { TestModeController } from './test-mode.controller';
import { TestModeKeyGuard } from './test-mode.guard';
import { TestModeService } from './test-mode.service';
import { TestModeStore } from './test-mode.store';

/** Test mode (docs/test-mode.md): AppModule imports it only when TEST_MODE=true. */
@Module({
  imports: [AuditModule, RateLimitModule],
  controllers: [TestModeController],
  providers: [TestModeService, TestModeStore, TestModeKeyGuard, SharedClockOffset],
})
export class TestModeModule {}
