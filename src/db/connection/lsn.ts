/** @module PostgreSQL WAL positions (`pg_lsn`, text `X/Y`) as exact bigints. Pure. */

/** XLOG_BLCKSZ: the size of a WAL page (PostgreSQL's compile-time default, which every packaged build keeps). */
const WAL_PAGE_BYTES = 8192n;
/** SizeOfXLogShortPHD: the header at the start of every WAL page but a segment's first. */
const SHORT_PAGE_HEADER_BYTES = 24n;
/** SizeOfXLogLongPHD: the header at the start of a segment's first page. */
const LONG_PAGE_HEADER_BYTES = 40n;

/** parseLsn reads `pg_lsn`'s text form (two hexadecimal halves); undefined for anything else (NULL included). */
export function parseLsn(text: string | null | undefined): bigint | undefined {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text ?? '');
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** formatLsn writes a position as PostgreSQL does (`16/B374D848`). */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * recordEnd turns the primary's insert position into the end of the last record written. At a page boundary the
 * insert position points past the next page's header, where no record ends (a record continued on a page has at least
 * one byte there), while a standby's replay position is the record's end, the boundary itself: unless moved back, an
 * idle primary's position would stay ahead of a standby that has replayed everything.
 */
export function recordEnd(insertLsn: bigint): bigint {
  const inPage = insertLsn % WAL_PAGE_BYTES;
  // a segment's first page has the long header; its offset within the page is the same check
  if (inPage === LONG_PAGE_HEADER_BYTES || inPage === SHORT_PAGE_HEADER_BYTES) return insertLsn - inPage;
  return insertLsn;
}
