import { editDistance } from './edit-distance';
/** The candidate nearest to `word` by edit distance, if within 2 edits (or a third of its length); for "did you mean". */
export function closestWord(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of [...new Set(candidates)].sort()) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
