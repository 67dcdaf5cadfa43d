import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is shutting down. Set first thing on SIGTERM, so that readiness fails
 * and the load balancer stops sending requests before the server stops accepting them.
 */
@Injectable()
export class ShutdownState {
  private shuttingDown = false;

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  begin(): void {
    this.shuttingDown = true;
  }
}
