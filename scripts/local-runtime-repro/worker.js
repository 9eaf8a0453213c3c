// The smallest Worker that shows how workerd reads its sockets (README, "The local
// runtime and long work"): /start begins a job in the background that keeps the runtime
// busy with in-process calls (a Durable Object's RPC) for a few seconds; /ping answers at
// once. `yield=1` has the job wait on a zero-length timer between calls.
import { DurableObject } from "cloudflare:workers";

export class Busy extends DurableObject {
  /** CPU work with no I/O, some tens of milliseconds. */
  spin(n) {
    let x = 0;
    for (let i = 0; i < n; i++) x += Math.sqrt(i);
    return x;
  }
}

async function job(env, seconds, yieldBetweenCalls) {
  const busy = env.BUSY.get(env.BUSY.idFromName("one"));
  // The clock moves only at I/O, which each call is.
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    await busy.spin(2_000_000);
    if (yieldBetweenCalls) await scheduler.wait(0);
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/start") {
      ctx.waitUntil(job(env, Number(url.searchParams.get("seconds") ?? 8), url.searchParams.get("yield") === "1"));
      return new Response("started\n");
    }
    return new Response("pong\n");
  },
};
