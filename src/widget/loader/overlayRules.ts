import { VALUE_SHAPES } from '../../shared/widgetConfig';
import { BOOLEAN, type OverlayRules, type Rule } from './validateConfig';

const [pattern, expected] = VALUE_SHAPES.length;
const LENGTH: Rule = [(value) => typeof value === 'string' && pattern.test(value.trim()), expected];

/**
 * The checks of the overlay form's own options. A module of their own, handed to checkConfig by
 * the builds that open the overlay, so the popup loader (which refuses these options by name)
 * does not carry their pattern and words.
 */
export const OVERLAY_RULES: OverlayRules = {
  isTop: BOOLEAN,
  left: LENGTH,
  top: LENGTH,
};
