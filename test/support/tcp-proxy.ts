import { once } from 'node:events';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/** How a disconnected proxy treats new connections. */
export type Outage =
  /** Nothing listens: connections are refused at once, as when the server is down. */
  | 'refuse'
  /** Connections are accepted and then nothing ever arrives, as in a network partition. */
  | 'blackhole';

/**
 * A TCP proxy on a free loopback port that a test puts between the app and a server (MariaDB,
 * Redis, SMTP) to inject faults: `disconnect()` cuts every open connection and refuses or
 * blackholes new ones, `reconnect()` serves again on the same port, `latency()` slows the
 * server's answers.
 */
export class TcpProxy {
  private server: Server;
  private state: 'up' | Outage = 'up';
  private delayMs = 0;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = this.createServer();
  }

  /** Starts a proxy to `host:port`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.listen(0);
    return proxy;
  }

  /** Starts a proxy to the host and port of `url`, and gives `url` rewritten to go through it. */
  static async forUrl(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
    const parsed = new URL(url);
    const proxy = await TcpProxy.start({ host: parsed.hostname, port: Number(parsed.port || defaultPort) });
    parsed.hostname = '127.0.0.1';
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Connections open through the proxy (both sides counted). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Cuts every connection; new ones are refused or blackholed until `reconnect()`. */
  async disconnect(outage: Outage = 'refuse'): Promise<void> {
    if (this.state !== 'up') throw new Error(`the proxy is already disconnected (${this.state})`);
    this.state = outage;
    this.destroyAll();
    if (outage === 'refuse') await this.closeServer();
  }

  /** Forwards new connections again, on the same port; blackholed ones are cut. */
  async reconnect(): Promise<void> {
    if (this.state === 'up') return;
    const was = this.state;
    this.state = 'up';
    this.destroyAll();
    if (was === 'refuse') {
      this.server = this.createServer();
      await this.listen(this.port);
    }
  }

  /** Delays every chunk from the server by `ms` (0: none), as a slow or distant server would. */
  latency(ms: number): void {
    this.delayMs = ms;
  }

  async close(): Promise<void> {
    this.state = 'refuse';
    this.destroyAll();
    await this.closeServer();
  }

  private createServer(): Server {
    return createServer((client) => this.accept(client));
  }

  private async listen(port: number): Promise<void> {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  private async closeServer(): Promise<void> {
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.state !== 'up') {
      client.pause(); // blackholed: accepted, never answered
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (this.delayMs === 0) client.write(chunk);
      else setTimeout(() => !client.destroyed && client.write(chunk), this.delayMs);
    });
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', cut);
    upstream.on('close', cut);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
