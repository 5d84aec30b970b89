// Which pg failures become StorageUnavailableError (503) and which stay faults (500), and how
// int8 values from the database become numbers: checked without a server.
import { expect } from 'chai';
import { classifyPostgresError, isPostgresUnavailable } from '../../../src/adapters/postgres/postgres-errors.js';
import { safeIntegerFromInt8 } from '../../../src/adapters/postgres/postgres-pet-rows.js';
import { StorageUnavailableError } from '../../../src/domain/index.js';

const withCode = (code: string, message = 'failure') => Object.assign(new Error(message), { code });

describe('PostgreSQL failures', () => {
  it('takes connection failures, server shutdowns and timeouts as "unavailable"', () => {
    const unavailable = [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET'),
      withCode('ETIMEDOUT'),
      withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006', 'connection failure'),
      withCode('08001'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('57014', 'canceling statement due to statement timeout'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
    ];
    for (const err of unavailable) {
      expect(isPostgresUnavailable(err), err.message).to.equal(true);
      const classified = classifyPostgresError(err);
      expect(classified, err.message).to.be.instanceOf(StorageUnavailableError);
      expect((classified as Error).cause).to.equal(err);
    }
  });

  it('leaves query errors, data errors and bugs as they are (a 500)', () => {
    const faults = [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('23514', 'new row violates check constraint'),
      withCode('42P01', 'relation "pets" does not exist'),
      withCode('2200H', 'nextval: reached maximum value of sequence'),
      withCode('28P01', 'password authentication failed'),
      new TypeError('Cannot read properties of undefined'),
      new RangeError('pets.id 9007199254740993 from PostgreSQL cannot be represented exactly'),
    ];
    for (const err of faults) {
      expect(isPostgresUnavailable(err), err.message).to.equal(false);
      expect(classifyPostgresError(err)).to.equal(err);
    }
    expect(isPostgresUnavailable('ECONNREFUSED')).to.equal(false);
  });
});

describe('int8 values from PostgreSQL', () => {
  it('become numbers exactly across the safe-integer range', () => {
    for (const n of [0, 1, -1, 42, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect(safeIntegerFromInt8(String(n), 'pets.id')).to.equal(n);
    }
  });

  it('are refused, never rounded, beyond ±(2^53−1)', () => {
    for (const text of [
      '9007199254740992',
      '9007199254740993',
      '-9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
      '',
      'x',
      '1.5',
    ]) {
      expect(() => safeIntegerFromInt8(text, 'pets.id'), text).to.throw(RangeError, /cannot be represented exactly/);
    }
  });
});
