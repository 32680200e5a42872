/**
 * @module What the API server stores for a quantity a user writes: apimachinery's resource.Quantity (ParseQuantity,
 * then its canonical String()). The unit tests check canonicalQuantity against it; the real tier checks it against a
 * real API server (test/operator/real/operator.test.ts), so the table itself is an oracle that can fail.
 */

/** CANONICAL: [written, stored] pairs, in a ResourceList (a container's requests), which rounds up to thousandths. */
export const CANONICAL: ReadonlyArray<readonly [string, string]> = [
  ['0.5', '500m'],
  ['.5', '500m'],
  ['1.5', '1500m'],
  ['1', '1'],
  ['1000m', '1'],
  ['2000', '2k'],
  ['1000k', '1M'],
  ['1024', '1024'],
  ['0.1n', '1m'],
  ['0.5m', '1m'],
  ['1001u', '2m'],
  ['0.0', '0'],
  ['1024Mi', '1Gi'],
  ['1024Ki', '1Mi'],
  ['1.5Gi', '1536Mi'],
  ['0.5Gi', '512Mi'],
  ['0.5Ki', '512'],
  ['1.5Ki', '1536'],
  ['1000Ki', '1000Ki'],
  ['64Mi', '64Mi'],
  ['10e2', '1e3'],
  ['12e6', '12e6'],
  ['1e-3', '1e-3'],
];
