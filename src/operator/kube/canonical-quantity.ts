/**
 * @module Quantities as the Kubernetes API server stores them (apimachinery's resource.Quantity): the canonical text
 * of a quantity and which fields of the objects the operator writes hold one, so that an object written with "0.5" is
 * not taken for a changed one when the server gives back "500m" (the controller's drift check), and the fake API
 * server stores what the real one does. Pure.
 */
/**
 * QUANTITY_MAPS: the maps of quantities of the Kubernetes API the operator writes (ResourceRequirements' limits and
 * requests): core/v1 ResourceLists, whose values the API server also rounds up to a thousandth
 * (SetDefaults_ResourceList).
 */
export const QUANTITY_MAPS: ReadonlySet<string> = new Set(['limits', 'requests']);
/** QUANTITY_FIELDS: the fields that are one quantity (an emptyDir's sizeLimit). */
export const QUANTITY_FIELDS: ReadonlySet<string> = new Set(['sizeLimit']);

/** DECIMAL_SUFFIXES: the power of ten of each decimal SI suffix of a Kubernetes quantity. */
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
/** BINARY_SUFFIXES: the binary SI suffixes, Ki = 1024^1 … Ei = 1024^6. */
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
const NANO = 10n ** 9n;
/** Scale is the smallest unit a quantity is rounded up to: a nano (any quantity), a milli (a ResourceList's). */
export type Scale = 'nano' | 'milli';
const NANOS_PER: Record<Scale, bigint> = { nano: 1n, milli: 10n ** 6n };
/** MAX_NANOS: the API server caps a quantity's magnitude at 2^63-1 units. */
const MAX_NANOS = (2n ** 63n - 1n) * NANO;
const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:([KMGTPE]i)|([numkMGTPE]?)|[eE]([+-]?[0-9]+))$/;

/**
 * canonicalQuantity writes a resource.Quantity as the API server stores it (apimachinery's CanonicalizeBytes): the
 * value rounded up to whole nanos (to thousandths, `scale` milli, in a ResourceList: "0.1m" → "1m"), then with a
 * binary suffix ("1024Mi" → "1Gi") when it was written with one and is a whole number of at least 1024, else with the
 * largest decimal suffix (or `e` exponent, when written so) that keeps the number whole ("0.5" → "500m", "2000" →
 * "2k"). Undefined when text is not a quantity (a number is read as JSON writes it).
 */
export function canonicalQuantity(text: string | number, scale: Scale = 'nano'): string | undefined {
  const match = QUANTITY.exec(String(text));
  if (match === null) return undefined;
  const [, sign = '', number = '', binary, decimal, exponent] = match;
  const [whole = '', fraction = ''] = number.split('.');
  const digits = BigInt(`${whole}${fraction}` || '0');
  const tens =
    9 - fraction.length + (exponent !== undefined ? Number(exponent) : (DECIMAL_SUFFIXES[decimal ?? ''] ?? 0));
  const binaryPower = binary === undefined ? 0 : BINARY_SUFFIXES.indexOf(binary as (typeof BINARY_SUFFIXES)[number]);
  let nanos = digits * 1024n ** BigInt(binaryPower);
  // below a nano the API server rounds up, so that asking for a little never gives nothing
  nanos = tens >= 0 ? nanos * 10n ** BigInt(tens) : ceilDiv(nanos, 10n ** BigInt(-tens));
  nanos = ceilDiv(nanos, NANOS_PER[scale]) * NANOS_PER[scale];
  if (nanos > MAX_NANOS) nanos = MAX_NANOS;
  if (nanos === 0n) return '0';
  const minus = sign === '-' ? '-' : '';
  if (binary !== undefined && nanos >= 1024n * NANO && nanos % NANO === 0n) {
    let units = nanos / NANO;
    let power = 0;
    while (units % 1024n === 0n && power < BINARY_SUFFIXES.length - 1) {
      units /= 1024n;
      power++;
    }
    return `${minus}${units}${BINARY_SUFFIXES[power]}`;
  }
  let mantissa = nanos;
  let power = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    power++;
  }
  // the exponent goes down to a multiple of three, the mantissa up to match
  const spare = ((power % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(spare);
  power -= spare;
  if (exponent !== undefined) return `${minus}${mantissa}${power === 0 ? '' : `e${power}`}`;
  const suffix = Object.entries(DECIMAL_SUFFIXES).find(([, p]) => p === power)?.[0] ?? '';
  return `${minus}${mantissa}${suffix}`;
}

/** sameQuantity is true when both are the same quantity once canonical (or, when either is none, the same value). */
export function sameQuantity(a: unknown, b: unknown, scale: Scale = 'nano'): boolean {
  if (a === b) return true;
  if ((typeof a !== 'string' && typeof a !== 'number') || (typeof b !== 'string' && typeof b !== 'number'))
    return false;
  const canonical = canonicalQuantity(a, scale);
  return canonical !== undefined && canonical === canonicalQuantity(b, scale);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
