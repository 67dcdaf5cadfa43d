import { Injectable } from '@nestjs/common';
import { Insert } from '../database/atomic-writer';
import { SsoConnectionEntity } from '../database/entities';

/** What a feature writes when a test sign-in activates a connection: rows for the activation's transaction. */
export type ActivationRows = (connection: SsoConnectionEntity) => Promise<Insert[]>;

/**
 * The features above single sign-on that write rows of their own with a test sign-in's activation of
 * a connection, in its transaction (setup links: the owners' e-mail, docs/setup-links.md). They
 * register at start-up; single sign-on knows nothing of them.
 */
@Injectable()
export class SsoActivations {
  private readonly listeners: ActivationRows[] = [];

  onActivation(listener: ActivationRows): void {
    this.listeners.push(listener);
  }

  async rowsFor(connection: SsoConnectionEntity): Promise<Insert[]> {
    return (await Promise.all(this.listeners.map((listener) => listener(connection)))).flat();
  }
}
