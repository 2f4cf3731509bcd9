// Small random helpers for the soak's workload.
let counter = 0;

export const pick = (items) => items[Math.floor(Math.random() * items.length)];
export const between = (low, high) => low + Math.floor(Math.random() * (high - low + 1));
export const unique = (prefix) =>
  `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}`.toUpperCase();

/** One of `options`, chosen with the odds of their `weight`s. */
export function weighted(options) {
  let roll = Math.random() * options.reduce((sum, o) => sum + o.weight, 0);
  for (const option of options) {
    roll -= option.weight;
    if (roll < 0) return option;
  }
  return options[options.length - 1];
}
