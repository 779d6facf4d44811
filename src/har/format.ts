/**
 * HAR 1.2 (the W3C draft "HTTP Archive (HAR) format", as browsers' developer tools, Playwright,
 * mitmproxy and Charles write it): the fields the format requires, and the few optional ones
 * udcli writes or reads. Custom fields start with `_`, as the format asks.
 */
export const HAR_VERSION = '1.2';

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  /** Form fields; Chromium and Playwright write `text` alone, some tools `params` as well. */
  params?: HarNameValue[];
  text?: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  size: number;
  mimeType: string;
  text?: string;
  /** `base64` for binary bodies (Playwright, Chromium). */
  encoding?: string;
}

export interface HarResponse {
  /** 0: no reply came (a failed exchange). */
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  /** udcli: why no reply came (timeout, connection reset). */
  _failure?: string;
}

export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  send: number;
  wait: number;
  receive: number;
  ssl?: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
}

export interface HarCreator {
  name: string;
  version: string;
}

export interface HarLogHead {
  version: string;
  creator: HarCreator;
}
