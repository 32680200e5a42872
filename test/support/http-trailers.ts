/** @module Test helper: a whole HTTP/1.1 answer with its trailers (node:http reads them), for the exports' tests. */
import { request } from 'node:http';

/** Answer is an answer read to its end: status, headers, body and trailers. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly trailers: Record<string, string | undefined>;
}

/** getWhole GETs url with headers over HTTP/1.1 and reads the answer to its end, trailers included. */
export function getWhole(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          trailers: res.trailers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
