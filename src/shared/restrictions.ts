import { CONTAINERS, type Container } from './widgetConfig';

/**
 * The restrictions a page sets on the file beyond its size (`accept`, `minDuration`,
 * `maxDuration`), as the uploader applies them before sending a byte. Absent: no such limit.
 */
export interface ContentLimits {
  accept?: Container[];
  /** Seconds. */
  minDuration?: number;
  /** Seconds. */
  maxDuration?: number;
}

/** All four restrictions as the service reads them from the upload page's query. */
export interface PageRestrictions extends ContentLimits {
  /** Bytes; the service keeps its own limit when this one is absent or larger. */
  maxFileSize?: number;
}

const WHOLE = /^\d{1,16}$/;
const SECONDS = /^(\d{1,9}(\.\d*)?|\.\d+)$/;

/** `["mp4","mov"]` (the loader's JSON) or `mp4, mov` / `mp4 mov` (as typed in an attribute). */
function containerList(raw: string): unknown[] {
  if (raw.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return [raw];
    }
  }
  return raw.split(/[\s,]+/).filter(Boolean);
}

/**
 * Reads and checks the restrictions (`get` gives a parameter's trimmed text, empty or undefined
 * when absent); a problem is the detail of an INVALID_PARAMETER (106).
 */
export function decodeRestrictions(
  get: (name: keyof PageRestrictions) => string | undefined,
): { ok: true; restrictions: PageRestrictions } | { ok: false; detail: string } {
  const restrictions: PageRestrictions = {};
  const maxFileSize = get('maxFileSize');
  if (maxFileSize) {
    if (!WHOLE.test(maxFileSize) || Number(maxFileSize) < 1 || !Number.isSafeInteger(Number(maxFileSize)))
      return { ok: false, detail: 'maxFileSize must be a whole number of bytes, 1 or more' };
    restrictions.maxFileSize = Number(maxFileSize);
  }
  const accept = get('accept');
  if (accept) {
    const names = containerList(accept).map((name) => (typeof name === 'string' ? name.toLowerCase() : name));
    if (names.length === 0 || !names.every((name) => CONTAINERS.includes(name as Container)))
      return { ok: false, detail: `accept must list containers among ${CONTAINERS.join(', ')}` };
    restrictions.accept = [...new Set(names as Container[])];
  }
  for (const name of ['minDuration', 'maxDuration'] as const) {
    const value = get(name);
    if (!value) continue;
    if (!SECONDS.test(value) || (name === 'maxDuration' && Number(value) <= 0))
      return { ok: false, detail: `${name} must be a number of seconds, ${name === 'maxDuration' ? 'more than 0' : '0 or more'}` };
    restrictions[name] = Number(value);
  }
  const { minDuration, maxDuration } = restrictions;
  if (minDuration !== undefined && maxDuration !== undefined && minDuration > maxDuration)
    return { ok: false, detail: 'minDuration must not be more than maxDuration' };
  return { ok: true, restrictions };
}
