import type { AddressInfo } from 'node:net';

// dns2 2.x has no type declarations; the little used here is typed below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dns2 = require('dns2') as {
  Packet: {
    createResponseFromRequest(request: unknown): { answers: unknown[] };
    TYPE: Record<string, number>;
    CLASS: Record<string, number>;
  };
  UDPServer: new (handler: (request: DnsRequest, send: (response: unknown) => void) => void) => UdpServer;
};

interface DnsRequest {
  questions: { name: string; type: number }[];
}
interface UdpServer {
  listen(port: number, address: string): Promise<void>;
  address(): AddressInfo;
  close(done?: () => void): void;
}

/**
 * A DNS server on the loopback for the domain tests: TXT records by name, each record a list of
 * chunks (character strings) as a zone would publish a long value. Answers NOERROR with no
 * answer for a name it has nothing at. `stop()` closes it (the resolver then fails); `start()`
 * serves again on the same port.
 */
export class TestDns {
  private readonly records = new Map<string, string[][]>();
  private server?: UdpServer;
  port = 0;

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Adds one TXT record at the name (chunks: one string, or several). */
  publish(name: string, ...chunks: string[]): void {
    const key = name.toLowerCase();
    this.records.set(key, [...(this.records.get(key) ?? []), chunks]);
  }

  clear(name?: string): void {
    if (name) this.records.delete(name.toLowerCase());
    else this.records.clear();
  }

  async start(): Promise<void> {
    const { Packet, UDPServer } = dns2;
    const server = new UDPServer((request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question && question.type === Packet.TYPE.TXT) {
        for (const data of this.records.get(question.name.toLowerCase()) ?? []) {
          response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data });
        }
      }
      send(response);
    });
    await server.listen(this.port, '127.0.0.1');
    this.port = server.address().port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
