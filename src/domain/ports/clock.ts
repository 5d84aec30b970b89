/** The time, as a port so that tests can hold it still. */
export interface Clock {
  now(): Date;
}
