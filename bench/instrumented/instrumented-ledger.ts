/**
 * The tenant's object as the benchmark, the profile and the soak run it: the production
 * class plus two inspections that no request path has (the in-object cost of a read, and
 * the ledger's invariants over the whole tenant). Served only by the instrumented Worker.
 */
import type { Face } from "../../src/ledger/face";
import { ok, type Outcome } from "../../src/ledger/outcome";
import { TenantLedger } from "../../src/ledger/tenant-ledger";
import { brokenInvariants } from "../../test/support/invariants";
import { runInObjectRead, type InObjectArgs, type InObjectRead } from "./in-object-cost";

export class InstrumentedTenantLedger extends TenantLedger {
  /**
   * Milliseconds per call of a domain read run `iterations` times back to back. The
   * runtime's clock stands still while code runs and moves on at I/O, so the loop is
   * bracketed by two zero-length waits and the total divided.
   */
  async inObjectCost(face: Face, read: InObjectRead, args: InObjectArgs, iterations: number): Promise<Outcome<number>> {
    await scheduler.wait(0);
    const started = Date.now();
    for (let i = 0; i < iterations; i++) runInObjectRead(this.db, face, read, args);
    await scheduler.wait(0);
    return ok((Date.now() - started) / iterations);
  }

  /** The ledger's invariants that do not hold (none for a healthy ledger). */
  brokenInvariants(): Outcome<string[]> {
    return ok(brokenInvariants(this.db));
  }
}
