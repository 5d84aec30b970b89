import { expect } from 'chai';
import { natsServerOptions } from '../../../src/adapters/nats/nats-url.js';

describe('a NATS URL as the client takes it', () => {
  it('is a host and port, with 4222 when none is given', () => {
    expect(natsServerOptions('nats://127.0.0.1:4223')).to.deep.equal({ servers: '127.0.0.1:4223' });
    expect(natsServerOptions('nats://nats.example')).to.deep.equal({ servers: 'nats.example:4222' });
  });

  it('takes a user and password, or a token, out of the server name, decoded', () => {
    expect(natsServerOptions('nats://events:s%40cret@nats.example:4222')).to.deep.equal({
      servers: 'nats.example:4222',
      user: 'events',
      pass: 's@cret',
    });
    expect(natsServerOptions('nats://t0ken@nats.example:4222')).to.deep.equal({ servers: 'nats.example:4222', token: 't0ken' });
  });

  it('asks for TLS with tls://', () => {
    expect(natsServerOptions('tls://nats.example:4443')).to.deep.equal({ servers: 'nats.example:4443', tls: {} });
  });
});
