/** What a DNS host must offer for ACME DNS-01: each provider implements it. */

export interface TxtHandle {
  zone: string;
  /** The provider's own reference of the record (ids), opaque to the caller. */
  ref: string;
}

/** A DNS host that can publish and withdraw the `_acme-challenge` TXT records. */
export interface DnsTxtProvider {
  addTxt(fqdn: string, value: string): Promise<TxtHandle>;
  removeTxt(handle: TxtHandle): Promise<void>;
  /** Answers once the record is served; absent: the zone's authoritative servers are asked. */
  waitServed?(fqdn: string, value: string, opts: { timeoutMs: number; signal: AbortSignal }): Promise<void>;
}
