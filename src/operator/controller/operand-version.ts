/**
 * @module Whether the operator may roll an operand image (pure): its version, as the image's own `mdw db usage`
 * reports it, is at least the oldest this operator drives, and it knows every migration applied to the schemas it
 * would run on. The report comes from a Job that runs the image itself: a tag says nothing certain (`latest`, a
 * digest, a re-pushed tag), and the operator cannot read a registry (it holds no pull Secret).
 */
import semver from 'semver';
import type { OperandStatus } from '../api/middleware-types.ts';
import type { DatabaseReport } from './database-report.ts';

/**
 * MIN_OPERAND_VERSION: the oldest operand this operator drives: 0.2.0 was the first that reports its version and its
 * schemas' owners in `mdw db usage` and records the owner the operator gives it (MIDDLEWARE_UID, MIDDLEWARE_NAME);
 * 0.3.0 the first whose populator writes its writer Lease's times as the API server's MicroTime (six fractional
 * digits: a real API server refuses an older one's every write). Raise it with every release whose operator relies on
 * something new in the operand.
 */
export const MIN_OPERAND_VERSION = '0.3.0';

/** OperandVerdict: the image may roll (with what it reported), or why not. */
export type OperandVerdict =
  | { readonly accepted: true; readonly operand: OperandStatus; readonly message: string }
  | { readonly accepted: false; readonly reason: 'OperandTooOld' | 'OperandOlderThanSchema'; readonly message: string };

/**
 * judgeOperand decides on `image` from its own report: refused when it reports no version (an image older than the
 * first that does), a version below MIN_OPERAND_VERSION, or a newest migration older than one applied to a schema
 * in `schemas` (the generations it would run on: old code on a newer schema).
 */
export function judgeOperand(image: string, report: DatabaseReport, schemas: readonly string[]): OperandVerdict {
  const version = report.version === undefined ? undefined : semver.valid(report.version);
  if (version === undefined || version === null || semver.lt(version, MIN_OPERAND_VERSION))
    return {
      accepted: false,
      reason: 'OperandTooOld',
      message: `image ${image} ${version ? `is version ${version}` : 'reports no version'}: this operator drives ${MIN_OPERAND_VERSION} and newer; set spec.image to such an image (or remove it for the operator's own)`,
    };
  const newest = report.newestMigration ?? undefined;
  const ahead = report.schemas.filter(
    (s) => schemas.includes(s.name) && newest !== undefined && (s.migration ?? '') > newest,
  );
  if (ahead.length > 0)
    return {
      accepted: false,
      reason: 'OperandOlderThanSchema',
      message: `image ${image} (${version}) knows migrations up to ${newest ?? '?'}, but ${ahead.map((s) => `${s.name} has ${s.migration ?? '?'}`).join(', ')} applied: it would run old code on a newer schema; set spec.image back to an image of that schema's version or newer`,
    };
  const operand: OperandStatus = { image, version, ...(newest === undefined ? {} : { newestMigration: newest }) };
  return {
    accepted: true,
    operand,
    message: `image ${image} is version ${version} (oldest driven: ${MIN_OPERAND_VERSION})`,
  };
}
