// The Link header (RFC 8288), as far as the client needs it: the target of one relation.

/** The target of the first link with relation `rel` in a Link header value, or undefined. */
export function linkTarget(header: string | null, rel: string): string | undefined {
  if (header === null) return undefined;
  // Each link: <target> followed by parameters, links separated by commas outside <…>.
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2]!;
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const value = rels?.[1] ?? rels?.[2];
    if (value !== undefined && value.toLowerCase().split(/\s+/).includes(rel)) return match[1];
  }
  return undefined;
}
