import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between NATS clients and the broker that cuts a client off at a JetStream delivery, so a test knows
 * that client holds an unacknowledged request (instead of hoping it does at the instant it is killed).
 *
 * Once armed, the first chunk from the broker that carries a message with a `$JS.ACK.` reply subject (a pull
 * consumer's delivery) is not passed on, and from then on nothing the client sends reaches the broker. The broker
 * has delivered that message and never hears its acknowledgement, so it redelivers it after ack_wait. `cut`
 * resolves at that moment.
 */
export class NatsDeliveryCut {
  private armed = false;
  private done = false;
  private resolveCut: () => void = () => undefined;
  private readonly sockets = new Set<Socket>();
  readonly cut: Promise<void> = new Promise((resolve) => (this.resolveCut = resolve));

  private constructor(
    private readonly server: Server,
    private readonly brokerPort: number,
  ) {
    server.on('connection', (client) => this.relay(client));
  }

  /** Listens on a free loopback port in front of the broker at 127.0.0.1:brokerPort. */
  static async start(brokerPort: number): Promise<NatsDeliveryCut> {
    const server = createServer();
    const proxy = new NatsDeliveryCut(server, brokerPort);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    return `nats://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** From now on, the next delivery to a client through this proxy cuts that client off. */
  arm(): void {
    this.armed = true;
  }

  private relay(client: Socket): void {
    const broker = connect(this.brokerPort, '127.0.0.1');
    for (const s of [client, broker]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        broker.destroy();
      });
    }
    // Protocol lines can straddle chunks: the unfinished last line of a chunk is matched with the next one.
    let partial = '';
    broker.on('data', (chunk: Buffer) => {
      if (this.done) return;
      const text = partial + chunk.toString('latin1');
      partial = text.slice(text.lastIndexOf('\n') + 1).slice(-1024);
      if (this.armed && carriesDelivery(text)) {
        this.done = true;
        this.resolveCut();
        return;
      }
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      if (!this.done) broker.write(chunk);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Whether NATS protocol text holds a MSG/HMSG whose reply subject is a JetStream acknowledgement subject. */
function carriesDelivery(text: string): boolean {
  return /(?:^|\n)H?MSG [^ \r\n]+ [^ \r\n]+ \$JS\.ACK\./.test(text);
}
