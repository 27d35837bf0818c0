/** Drafts saved from the space (src/features/content/articles/): what marks them, read by the pull and the space. */

/**
 * True for a draft saved from the space (`brouillon: true`, or the text "true" typed in the console): the pull leaves
 * it out without reporting a problem, so a draft never reaches the site.
 */
export function isDraft(raw: unknown): boolean {
  const value = (raw as { brouillon?: unknown } | null | undefined)?.brouillon;
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}
