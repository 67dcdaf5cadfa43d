import { auditActor, NewAuditEvent, toAuditEventRow } from './audit-event-shape';

const event = (data: Record<string, unknown>, actor: NewAuditEvent['actor']): NewAuditEvent => ({
  type: 'domain.added',
  tenantId: 'tenant-1',
  actor,
  target: { type: 'domain', id: 'domain-1' },
  data,
});
const stored = (e: NewAuditEvent) => JSON.parse(toAuditEventRow('event-1', new Date(0), e).data);

describe(toAuditEventRow.name, () => {
  const link = auditActor({
    id: 'setup_link:link-1',
    email: null,
    userType: 'org',
    tenantId: 'tenant-1',
    role: null,
    setupLink: 'link-1',
  });

  it('a change made through a setup link says `via: {"setupLink": id}` beside its data', () => {
    expect(link).toEqual({ id: 'setup_link:link-1', email: null, via: { setupLink: 'link-1' } });
    expect(stored(event({ name: 'acme.example' }, link))).toEqual({
      name: 'acme.example',
      via: { setupLink: 'link-1' },
    });
  });

  it('an event with a `via` of its own keeps it, the link beside as `setupLink`', () => {
    expect(stored(event({ via: 'sso' }, link))).toEqual({ via: 'sso', setupLink: 'link-1' });
  });

  it('any other change: its data as it is', () => {
    const owner = auditActor({ id: 'owner-1', email: 'o@acme.example', userType: 'org', tenantId: 't', role: 'owner' });
    expect(owner).toEqual({ id: 'owner-1', email: 'o@acme.example' });
    expect(stored(event({ name: 'acme.example' }, owner))).toEqual({ name: 'acme.example' });
    expect(stored(event({ name: 'acme.example' }, null))).toEqual({ name: 'acme.example' });
  });
});
