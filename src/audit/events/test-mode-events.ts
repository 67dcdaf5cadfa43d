/** The events of test mode (docs/test-mode.md): types of their own, never mistaken for real actions. */

import { IdentityUser } from '../../identity/identity-store';
import { AuditEventType } from '../audit-event-types';
import { NewAuditEvent } from '../audit-event-shape';

/** An event of test mode's own, on the whole service. */
const aboutTestMode = (type: AuditEventType, data: Record<string, unknown>): NewAuditEvent => ({
  type,
  tenantId: null,
  actor: null,
  target: { type: 'test_mode', id: null },
  data,
});

export const testModeEvents = {
  mailboxRead: (to: string, emails: number): NewAuditEvent => ({
    ...aboutTestMode('test.mailbox_read', { emails }),
    target: { type: 'invitation', id: null, email: to },
  }),
  sessionIssued: (user: Pick<IdentityUser, 'id' | 'email'>, tenantId: string | null): NewAuditEvent => ({
    ...aboutTestMode('test.session_issued', {}),
    tenantId,
    target: { type: 'user', id: user.id, email: user.email },
  }),
  clockMoved: (offsetSeconds: number) => aboutTestMode('test.clock_moved', { offsetSeconds }),
  rateLimitsCleared: () => aboutTestMode('test.rate_limits_cleared', {}),
  tenantsRemoved: (namePrefix: string, tenants: number) =>
    aboutTestMode('test.tenants_removed', { namePrefix, tenants }),
};
