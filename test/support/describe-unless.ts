// A describe() whose tests need something the machine may lack (a database, a server binary).
// Without it, the title says why and its tests are reported as pending, never silently missing.

/** `describe(title, body)`, its tests skipped with the reason in the title when `skipReason` is given. */
export function describeUnless(skipReason: string | undefined, title: string, body: () => void): void {
  describe(skipReason === undefined ? title : `${title} (${skipReason})`, function () {
    before(function () {
      if (skipReason !== undefined) this.skip();
    });
    body();
  });
}
