import { ApiProperty } from '@nestjs/swagger';

/** One e-mail of the mailbox. */
export class MailboxEmail {
  @ApiProperty() subject: string;
  @ApiProperty() text: string;
  @ApiProperty({ description: 'The acceptance link' }) link: string;
  @ApiProperty({ description: 'The invitation token in the link' }) token: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while still in the outbox' })
  sentAt: string | null;
}

export class MailboxResponse {
  @ApiProperty({ type: [MailboxEmail], description: 'Newest first' }) emails: MailboxEmail[];
}

export class TestSessionResponse {
  @ApiProperty({ description: 'A session id token, as `session:token` prints' }) token: string;
  @ApiProperty({ description: 'The Set-Cookie value that carries it', example: 'id_token=eyJ…; Path=/; HttpOnly' })
  cookie: string;
}

export class ClockResponse {
  @ApiProperty({ description: 'How far the clock is ahead of the real time' }) offsetSeconds: number;
  @ApiProperty({ format: 'date-time', description: "The service's time now" }) now: string;
}

export class RemovedTenantsResponse {
  @ApiProperty({ description: 'Tenants removed by this call' }) removed: number;
}
