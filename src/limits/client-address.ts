/**
 * The client's address, read only where the deployment says the platform reports it.
 * Cloudflare's edge sets `CF-Connecting-IP` in front of the deployed Worker, replacing any
 * value the client sent; anywhere else (wrangler dev passes a client's own header through,
 * the tests, another proxy) a client sets it at will, so it is read only when
 * `TRUST_CF_CONNECTING_IP` is `on`. Otherwise the address is unknown (null).
 */
import type { Env } from "../env";

export function clientAddress(request: Request, env: Pick<Env, "TRUST_CF_CONNECTING_IP">): string | null {
  if (env.TRUST_CF_CONNECTING_IP !== "on") return null;
  return request.headers.get("cf-connecting-ip")?.trim() || null;
}
