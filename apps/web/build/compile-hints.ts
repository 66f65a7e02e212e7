/** V8's explicit compile hint (Chrome 136+): compile every function of this file eagerly. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The first line of each chunk (the bundler's `postBanner`, written after minification, which
 * strips comments; source maps are moved down with the code): the hint, but for the chunks named
 * in `onDemand` (docs/decisions/0043).
 *
 * Without the hint V8 pre-parses a module's functions and compiles each on the main thread when
 * it is first called; with it, they are compiled while the script streams in, off the main
 * thread, and all of them go into Chromium's code cache, so a returning visit starts from compiled
 * code. The libraries loaded on demand (charts, maps, video, pinyin) stay lazy: most of their
 * code never runs on a visit.
 */
export function compileHint(onDemand: RegExp) {
  return (chunk: { name: string }): string => (onDemand.test(chunk.name) ? '' : COMPILE_HINT);
}
