import { expect } from 'chai';
import { describeNats, natsServerOptions } from '../../../src/adapters/nats/nats-url.js';

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

  it('is described without its password or token', () => {
    expect(describeNats('nats://alice:s3cret@nats.internal:4222', 'PETS')).to.equal('nats nats://alice@nats.internal:4222 (stream PETS)');
    // A user without a password is a token to the NATS client.
    expect(describeNats('nats://T0kenS3cret@127.0.0.1:4198', 'PETS')).to.equal('nats nats://***@127.0.0.1:4198 (stream PETS)');
    expect(describeNats('tls://T0kenS3cret:@nats.internal', 'PETS')).to.equal('nats tls://***@nats.internal (stream PETS)');
    expect(describeNats('nats://127.0.0.1:4222', 'PETSTORE')).to.equal('nats nats://127.0.0.1:4222 (stream PETSTORE)');
  });

  it('is described without a query or fragment, which the client ignores and may hold a secret', () => {
    expect(describeNats('nats://127.0.0.1:4222/?password=s3cret#t0ken', 'PETS')).to.equal('nats nats://127.0.0.1:4222/ (stream PETS)');
  });
});
