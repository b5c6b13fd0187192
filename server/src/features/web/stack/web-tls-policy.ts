/** The SSL area's settings that apply to the web server (given by app.ts). */
export interface WebTlsPolicy {
  protocols: string[];
  weakCiphers: boolean;
  forwardSecrecy: boolean;
  sessionCache: boolean;
  sessionCacheSize: number;
  sessionTimeout: number;
  sessionTickets: boolean;
  ocspStapling: boolean;
  ocspTimeout: number;
}
