/** Kinds of injected failure (admin API). */
export const FAULT_KINDS = [
  'status',
  'delay',
  'drop',
  'malformed-json',
  'html',
  'bad-record',
  'quirks',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** A path such as `/v1/comments` or `/v2/api/graphql`, or `*` for every API route. */
  route: string;
  /** How many of the next matching requests it applies to. */
  count: number;
  kind: FaultKind;
  status?: number;
  delayMs?: number;
}

/** Raised for a fault description that cannot be applied. */
export class InvalidFaultError extends Error {
  override readonly name = 'InvalidFaultError';
}

/** Checks an admin-supplied fault and fills defaults (status 503, delay 1000 ms). */
export function validateFault(input: unknown): Fault {
  if (typeof input !== 'object' || input === null) throw new InvalidFaultError('fault must be an object');
  const value = input as Record<string, unknown>;
  const { route, count, kind, status, delayMs } = value;
  if (typeof route !== 'string' || (route !== '*' && !route.startsWith('/'))) {
    throw new InvalidFaultError('route must be a path starting with / or *');
  }
  if (route.startsWith('/__admin')) throw new InvalidFaultError('the admin API cannot be faulted');
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new InvalidFaultError('count must be a positive integer');
  }
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new InvalidFaultError(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  if (
    status !== undefined &&
    (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
  ) {
    throw new InvalidFaultError('status must be an HTTP status code');
  }
  if (delayMs !== undefined && (typeof delayMs !== 'number' || delayMs < 0 || delayMs > 120_000)) {
    throw new InvalidFaultError('delayMs must be between 0 and 120000');
  }
  const fault: Fault = { route, count, kind: kind as FaultKind };
  if (kind === 'status' || kind === 'html') fault.status = typeof status === 'number' ? status : 503;
  if (kind === 'delay') fault.delayMs = typeof delayMs === 'number' ? delayMs : 1000;
  return fault;
}

/** Queue of pending faults; the first one matching a request's path is used once. */
export class FaultQueue {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  pending(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Takes one use of the first fault matching `path`, if any. */
  take(path: string): Fault | undefined {
    const index = this.faults.findIndex((f) => f.route === '*' || f.route === path);
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    fault.count -= 1;
    if (fault.count <= 0) this.faults.splice(index, 1);
    return { ...fault };
  }
}

/** The challenge page a CDN puts in front of the API. */
export const HTML_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head>' +
  '<body><h1>Checking your browser before accessing the directory.</h1></body></html>';

/**
 * Breaks the first record of a JSON body against its schema: the id becomes a string and
 * the name/body a number. Applied to the first array of objects found (a V1 list, or V2
 * `edges`/`nodes`), or to the first object under `data` for a single-record query.
 */
export function breakFirstRecord(body: unknown): boolean {
  const target = findRecord(body, 0);
  if (!target) return false;
  target['id'] = 'not-an-id';
  for (const key of ['name', 'body']) if (key in target || key === 'name') target[key] = 12345;
  return true;
}

function findRecord(value: unknown, depth: number): Record<string, unknown> | undefined {
  if (depth > 6 || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const record = item as Record<string, unknown>;
        return 'node' in record ? (findRecord(record['node'], depth + 1) ?? record) : record;
      }
    }
    return undefined;
  }
  const object = value as Record<string, unknown>;
  if ('id' in object && depth > 0) return object;
  for (const child of Object.values(object)) {
    const found = findRecord(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}
