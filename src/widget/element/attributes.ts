import type { ModuleUploadConfig } from '../../shared/widgetConfig';
import { MODULE_RULES, OVERLAY_RULES, RULES, VALUE_RULES } from '../loader/optionRules';
import type { Rule } from '../loader/rules';

/**
 * Every option an attribute can carry, with the loader's check of its value (its kind, where the
 * loader leaves the value to the service): the table's options but the handlers
 * (src/shared/widgetOptions.ts, as optionRules.ts has them). A new option in the table is an
 * attribute without a change here. Handlers and options whose values are not text (such as
 * functions) are set through the element's `options` property.
 */
const ATTRIBUTE_RULES: Record<string, Rule> = { ...RULES, ...OVERLAY_RULES, ...MODULE_RULES, ...VALUE_RULES };

/** `needHandleSepcial` → `need-handle-sepcial`. */
const attributeName = (option: string) => option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The readings of an attribute's text, tried in order until the option's check accepts one: the
 * text itself; a bare attribute (`is-top`) as true; JSON (`false`, `1048576`, `["mp4","mov"]`);
 * a list split at spaces or commas (`mp4 mov`).
 */
const READINGS: ((text: string) => unknown)[] = [
  (text) => text,
  (text) => text === '' || undefined,
  (text) => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  },
  (text) => text.split(/[\s,]+/).filter(Boolean),
];

function valueOf(text: string, [valid]: Rule): unknown {
  for (const read of READINGS) {
    const value = read(text);
    if (value !== undefined && valid(value)) return value;
  }
  // As written: `openUpload` then says what the option expects (a TypeError or the 106 page).
  return text;
}

/** The options the element's attributes set; an absent attribute leaves its option to the default. */
export function optionsFromAttributes(element: Element): Partial<ModuleUploadConfig> {
  const options: Record<string, unknown> = {};
  for (const option in ATTRIBUTE_RULES) {
    const text = element.getAttribute(attributeName(option));
    if (text !== null) options[option] = valueOf(text, ATTRIBUTE_RULES[option]!);
  }
  return options as Partial<ModuleUploadConfig>;
}
