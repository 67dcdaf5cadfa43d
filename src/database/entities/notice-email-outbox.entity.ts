import { Column, Entity } from 'typeorm';
import { VarcharColumn } from '../columns';
import { OutboxRowColumns } from '../outbox-row-columns';
import { OutboxStatus } from './invitation-email-outbox.entity';

/**
 * A notice e-mail waiting to be delivered (src/mail/notice-email.ts): a setup link sent to the IT
 * admin, an owner told of a setup's progress; written in the transaction of the change it tells of.
 * A delivered row is deleted at once: a setup link's token is kept nowhere once it is sent.
 */
@Entity({ name: 'notice_email_outbox' })
export class NoticeEmailOutboxEntity extends OutboxRowColumns<OutboxStatus> {
  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  /** The NoticeEmail as JSON. */
  @Column({ type: 'text' })
  payload: string;
}
