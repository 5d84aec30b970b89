// The URL of what a test's fetch was asked for, in every form fetch takes it.

/** The URL of `input`: a string, a URL, or a Request (whose String() would be "[object Request]"). */
export const urlOf = (input: string | URL | Request): string => (input instanceof Request ? input.url : input.toString());
