import { VALUE_SHAPES } from '../../shared/widgetConfig';

/** A check of an option's value, with the words that say what it expected. */
export type Rule = [valid: (value: unknown) => boolean, expected: string];

const typeIs = (type: string) => (value: unknown) => typeof value === type;
export const oneOf = (values: readonly string[]): Rule => [
  (value) => values.includes(value as string),
  values.map((value) => `"${value}"`).join(' or '),
];
export const STRING: Rule = [typeIs('string'), 'a string'];
export const BOOLEAN: Rule = [typeIs('boolean'), 'true or false'];
export const NUMBER: Rule = [typeIs('number'), 'a number'];
export const LIST: Rule = [Array.isArray, 'a list'];

/**
 * Any value whose JSON fits the page's address: it travels there as JSON, which a server or proxy
 * refuses outright (414, 431: no error page) past 8 to 16 KB. The service checks the value itself.
 */
export const SERVICE_CHECKS: Rule = [
  (value) => encodeURIComponent(JSON.stringify(value)).length <= 8e3,
  'at most 8000 bytes as URL-encoded JSON',
];

const [pattern, expected] = VALUE_SHAPES.length;
/** Only the builds that open the overlay carry its pattern and words (the overlay's `left` and `top`). */
export const LENGTH: Rule = [(value) => typeof value === 'string' && pattern.test(value.trim()), expected];
