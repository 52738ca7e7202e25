/**
 * A loopback server that speaks the OpenAI embeddings contract, for tests of the real client:
 * `POST /v1/embeddings` with `{input: string[], model, dimensions?, encoding_format?}` answers
 * `{object: "list", data: [{object: "embedding", index, embedding}], model, usage}`, with deterministic
 * vectors (a hashed bag of words) and faults queued per request.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the next request gets instead of a normal answer (faults are consumed one per request, in order). */
export type Fault =
  /** This status, with an OpenAI error body (or `body`), and these headers (e.g. Retry-After). */
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string; message?: string }
  /** Sends headers, then never finishes the body (the client must time out). */
  | { kind: "hang" }
  /** A 200 whose JSON body is cut in half. */
  | { kind: "truncate" }
  /** A 200 whose connection is destroyed mid-body (a network error on the client side). */
  | { kind: "drop" }
  /** A 200 with one vector one number short. */
  | { kind: "wrong_length" }
  /** A 200 with one embedding missing. */
  | { kind: "wrong_count" }
  /** A 200 whose last item has index = input length. */
  | { kind: "bad_index" }
  /** A 200 with a string inside a vector. */
  | { kind: "not_numbers" }
  /** A 200 without `data`. */
  | { kind: "no_data" }
  /** A 200 with this exact body. */
  | { kind: "raw"; body: string };

export interface RecordedRequest {
  body: { input: string[]; model: string; dimensions?: number; encoding_format?: string };
  headers: IncomingHttpHeaders;
  /** Path and query, e.g. `/v1/embeddings?api-version=1`. */
  url: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface FakeOpenAI {
  /** The base_url to configure: `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Most requests that were being handled at the same time. */
  maxConcurrent: number;
  faults: Fault[];
  /** Each answer waits this long (ms) before it is sent, so that concurrent requests overlap. */
  delayMs: number;
  /** Texts the server refuses with a 400 (as OpenAI does for an input over the context length). */
  refuse: (text: string) => boolean;
  /** The key the server expects; requests with another Authorization get a 401 that echoes it. */
  expectKey: string | undefined;
  close(): Promise<void>;
}

/** The vector the fake returns for `text`: word counts hashed into `dims` buckets (FNV-1a), lowercased. */
export function fakeVector(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 0x811c9dc5;
    for (const ch of word) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    v[h % dims] = (v[h % dims] ?? 0) + 1;
  }
  return v;
}

/** Tokens the fake bills for a text: its word count, at least 1. */
export function fakeTokens(text: string): number {
  return Math.max(1, (text.match(/[\p{L}\p{N}]+/gu) ?? []).length);
}

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  let active = 0;
  const hanging = new Set<ServerResponse>();
  const fake: FakeOpenAI = {
    url: "",
    requests: [],
    maxConcurrent: 0,
    faults: [],
    delayMs: 0,
    refuse: () => false,
    expectKey: undefined,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      active++;
      fake.maxConcurrent = Math.max(fake.maxConcurrent, active);
      res.on("close", () => active--);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RecordedRequest["body"];
      fake.requests.push({ body, headers: req.headers, url: req.url ?? "", at: Date.now() });
      const fault = fake.faults.shift();
      setTimeout(() => answer(req.url ?? "", req.headers, body, fault, res), fake.delayMs);
    });
  });

  function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof value === "string" ? value : JSON.stringify(value));
  }

  function answer(path: string, headers: IncomingHttpHeaders, body: RecordedRequest["body"], fault: Fault | undefined, res: ServerResponse) {
    if (path.split("?")[0] !== "/v1/embeddings") return json(res, 404, { error: { message: `no route ${path}`, type: "invalid_request_error", code: null } });
    if (fake.expectKey !== undefined && headers.authorization !== `Bearer ${fake.expectKey}`) {
      // Echo the key, as real servers partly do: the client must mask it.
      return json(res, 401, { error: { message: `Incorrect API key provided: ${headers.authorization ?? "(none)"}`, type: "invalid_request_error", code: "invalid_api_key" } });
    }
    if (fault?.kind === "status") {
      const errorBody = fault.body ?? JSON.stringify({ error: { message: fault.message ?? `fault ${fault.status}`, type: "server_error", code: null } });
      return json(res, fault.status, errorBody, fault.headers);
    }
    if (fault?.kind === "raw") return json(res, 200, fault.body);
    if (fault?.kind === "hang") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"object":"list",');
      hanging.add(res);
      return;
    }
    const refused = body.input.find((t) => fake.refuse(t));
    if (refused !== undefined) {
      return json(res, 400, { error: { message: `This model's maximum context length is 8192 tokens (input "${refused.slice(0, 20)}")`, type: "invalid_request_error", code: null } });
    }
    const dims = body.dimensions ?? 64;
    const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text, dims) as unknown[] }));
    const tokens = body.input.reduce((n, t) => n + fakeTokens(t), 0);
    // Answer out of order, as the API may: the client must sort by index.
    data.reverse();
    const last = data[data.length - 1];
    if (fault?.kind === "wrong_length" && last) last.embedding.pop();
    if (fault?.kind === "wrong_count") data.pop();
    if (fault?.kind === "bad_index" && last) last.index = body.input.length;
    if (fault?.kind === "not_numbers" && last) last.embedding[1] = "x";
    const response = fault?.kind === "no_data" ? { object: "list", model: body.model } : { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
    const text = JSON.stringify(response);
    if (fault?.kind === "truncate") return json(res, 200, text.slice(0, Math.floor(text.length / 2)));
    if (fault?.kind === "drop") {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(text.length) });
      res.write(text.slice(0, 10));
      setTimeout(() => res.destroy(), 5);
      return;
    }
    json(res, 200, text);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
