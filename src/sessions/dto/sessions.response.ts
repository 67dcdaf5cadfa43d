import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SESSION_KINDS, SessionKind } from '../../database/entities/session.entity';

export class SessionConnectionResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
}

export class SessionViaResponse {
  @ApiProperty({ enum: SESSION_KINDS, description: 'sso: a single sign-on; cli: the operator CLI; test: test mode' })
  type: SessionKind;
  @ApiPropertyOptional({ type: SessionConnectionResponse, description: 'The connection of a single sign-on' })
  connection?: SessionConnectionResponse;
}

export class SessionResponse {
  @ApiProperty({ description: "The session's id (the token's sid)" })
  id: string;
  @ApiProperty({ description: 'The session of this request' })
  current: boolean;
  @ApiProperty({ type: SessionViaResponse })
  via: SessionViaResponse;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Written at most once per SESSION_TOUCH_SECONDS' })
  lastUsedAt: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'The User-Agent of the sign-in' })
  userAgent: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The client address of the sign-in' })
  ip: string | null;
}

export class SessionsResponse {
  @ApiProperty({ type: [SessionResponse], description: 'Live sessions, newest first' })
  sessions: SessionResponse[];
}

export class SignOutResponse {
  @ApiProperty({
    format: 'uri',
    description: "The provider's end-session endpoint (RP-Initiated Logout 1.0), where the browser goes next",
  })
  providerSignOutUrl: string;
}
