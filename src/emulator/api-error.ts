/**
 * An error answer of the emulated service. The body shape `{error, error_description}` is the
 * V1 shape REAL-WORLD.md documents; the emulator uses it for every status it decides itself.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${description}`);
  }

  /** The JSON body sent for this error. */
  toBody(): Record<string, unknown> {
    return {
      error: this.code,
      error_description: this.description,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** 400 naming the parameter at fault. */
export function invalidParameter(name: string, problem: string): ApiError {
  return new ApiError(400, 'invalid_parameter', `Parameter ${name} ${problem}`);
}

/** 404 for an unknown path or record. */
export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} was not found`);
}
