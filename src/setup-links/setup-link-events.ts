/** The events of setup links (docs/setup-links.md), about the link by id: never its token. */
import { AuditActor, NewAuditEvent } from '../audit/audit-event';
import { SetupLinkEntity } from '../database/entities/setup-link.entity';
import { intentsOf } from './setup-link';

type Link = Pick<SetupLinkEntity, 'id' | 'tenantId' | 'intents'>;

const about = (
  type: NewAuditEvent['type'],
  link: Link,
  actor: AuditActor | null,
  data: Record<string, unknown> = {},
): NewAuditEvent => ({ type, tenantId: link.tenantId, actor, target: { type: 'setup_link', id: link.id }, data });

/** The actor of a change made through a link: the link, by id; its events say `via: {"setupLink": id}`. */
export const linkActor = (linkId: string): AuditActor => ({
  id: `setup_link:${linkId}`,
  email: null,
  via: { setupLink: linkId },
});

export const setupLinkEvents = {
  created: (link: SetupLinkEntity, owner: AuditActor) =>
    about('setup_link.created', link, owner, {
      intents: intentsOf(link),
      expiresAt: link.expiresAt.toISOString(),
      ...(link.email && { email: link.email }),
    }),
  opened: (link: Link, ip: string | null) => about('setup_link.opened', link, linkActor(link.id), { ip }),
  completed: (link: Link) => about('setup_link.completed', link, linkActor(link.id)),
  revoked: (link: Link, owner: AuditActor) => about('setup_link.revoked', link, owner),
  expired: (link: Pick<SetupLinkEntity, 'id' | 'tenantId' | 'intents' | 'expiresAt'>) =>
    about('setup_link.expired', link, null, { expiresAt: link.expiresAt.toISOString() }),
};
