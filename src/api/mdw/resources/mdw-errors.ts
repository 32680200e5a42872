/** @module ae_mdw's error answers: `{"error": "<kind>: <value>"}`, 404 for `not found`, 400 for every other input error. */
import { AppError, ErrorCode } from '../../../base/errors.ts';

/** v3BadRequest is a 400 whose message is ae_mdw's error text (e.g. `invalid id: ak_x`). */
export function v3BadRequest(message: string): AppError {
  return new AppError(ErrorCode.API_BAD_REQUEST, 400, message);
}

/** v3NotFound is ae_mdw's 404 `not found: <what>`. */
export function v3NotFound(what: string): AppError {
  return new AppError(ErrorCode.API_NOT_FOUND, 404, `not found: ${what}`);
}
