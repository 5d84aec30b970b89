// The transfer codings of a request (RFC 9112 §6.1). Node's parser frames a body whose last
// coding is chunked, and hands on its bytes with the codings before chunked still applied: the
// service undoes none of them, so chunked alone is the only framing it can read.
const CHUNKED = 'chunked';

/**
 * Whether a request with this Transfer-Encoding (Node joins repeated lines with ", ") can be
 * served: none, or `chunked` alone, in any letter case, empty list elements ignored (RFC 9110 §5.6.1).
 */
export function isSupportedTransferCoding(header: string | undefined): boolean {
  if (header === undefined) return true;
  const codings = header
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '');
  return codings.length === 1 && codings[0]!.toLowerCase() === CHUNKED;
}
