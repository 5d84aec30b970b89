// The bench's event probe (bench/harness/event-probe.ts) and its --events option: the delay from
// each probe's 201 to its event's storing in the stream, and the probes whose event never came.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CREATED_SUBJECT, EVENT_STREAM, pooledDelays, startEventProbe } from '../../bench/harness/event-probe.js';
import { parseOptions } from '../../bench/harness/options.js';
import { eventStreamConfig } from '../../src/adapters/nats/event-stream.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../support/nats.js';

describe('bench: the --events option', () => {
  const parse = (...argv: string[]) => parseOptions(argv, {});

  it('is off unless given, and leaves every other setting as it is', () => {
    const { events, ...rest } = parse('--quick', '--events');
    expect(events).to.equal(true);
    expect(parse('--quick').events).to.equal(false);
    expect({ ...parse('--quick'), events: true }).to.deep.equal({ ...rest, events: true });
  });

  it('measures creates on SQLite: not with --db or --scale, nor with --only leaving out create', () => {
    expect(() => parse('--events', '--db=postgres://postgres@127.0.0.1:5432/test')).to.throw('not with --db or --scale');
    expect(() => parse('--events', '--scale')).to.throw('not with --db or --scale');
    expect(() => parse('--events', '--only=get-by-id')).to.throw('add it to --only');
    expect(parse('--events', '--only=create,get-by-id').only).to.deep.equal(['create', 'get-by-id']);
  });
});

describeWithNatsServer('bench: the event probe', () => {
  let nats: PrivateNats;
  let publisher: NatsConnection;
  let server: Server;
  let origin: string;
  const created: number[] = [];

  before(async () => {
    nats = await startPrivateNats();
    publisher = await connect({ servers: nats.url });
    // The stream as the project makes it, holding an event of pet 3 from before the probe starts:
    // not the event of the probe's pet 3, whose own the stand-in never publishes.
    await (await jetstreamManager(publisher)).streams.add(eventStreamConfig(EVENT_STREAM));
    publisher.publish(CREATED_SUBJECT, JSON.stringify({ id: 'before', subject: '3' }));
    await publisher.flush();
    let next = 0;
    // A stand-in for the project: answers each create 201 and publishes its event, but never pet 3's.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = ++next;
        created.push(id);
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id, name: 'x', categoryId: 1, status: 'available' }));
        if (id !== 3) setTimeout(() => publisher.publish(CREATED_SUBJECT, JSON.stringify({ id: `e${id}`, subject: String(id) })), 5);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await publisher.close();
    await nats.remove();
  });

  it("times each probe's event from its 201 to its storing in the stream, and counts the probes whose event never came", async () => {
    const probe = await startEventProbe(origin, {}, { url: nats.url, pid: process.pid }, { everyMs: 20, quietMs: 300, graceMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const seen = await probe.stop();
    expect(seen.probes).to.equal(created.length).and.to.be.within(3, 14);
    expect(seen.unseen).to.equal(1);
    expect(seen.failed).to.equal(0);
    expect(seen.delaysMs).to.have.length(seen.probes - 1);
    // Each event is published 5 ms after its 201 is sent; a busy machine may hold either back.
    for (const delay of seen.delaysMs) expect(delay).to.be.within(-100, 2000);
    expect(seen.p50Ms).to.be.within(0, 2000);
    expect(seen.p99Ms).to.be.at.least(seen.p50Ms);

    const both = pooledDelays([seen, { ...seen, natsCpuPercent: seen.natsCpuPercent + 2 }])!;
    expect(both).to.include({ probes: 2 * seen.probes, unseen: 2, natsCpuPercent: seen.natsCpuPercent + 1 });
    expect(both.delaysMs).to.have.length(2 * seen.delaysMs.length);
  });
});
