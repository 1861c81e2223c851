/**
 * The wheel editor's live figures, computed as the manager types: each slice's probability
 * (weight / total weight) and the expected credit paid per spin (Σ probability × credit prize;
 * item prizes are not money and are listed apart). The same arithmetic as the server's
 * pao.promotions.wheel_editor.wheel_odds, whose exact figures replace these after saving.
 */
export type PrizeType = 'none' | 'credit' | 'item';
export type OddsInput = { weight: number; prizeType: PrizeType; prizeAmount: number };
export type Odds = {
  totalWeight: number;
  probabilities: number[];
  /** Major units (baht) per spin. */
  expectedPayout: number;
  /** Indexes of the item prizes. */
  itemPrizes: number[];
};

/** A weight as typed: a whole number ≥ 0, else null (the field shows an error). */
export function parseWeight(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,7}$/.test(trimmed)) return null;
  return Number(trimmed);
}

export function wheelOdds(slices: readonly OddsInput[]): Odds {
  const weights = slices.map((s) => (Number.isFinite(s.weight) && s.weight > 0 ? s.weight : 0));
  const totalWeight = weights.reduce((sum, w) => sum + w, 0);
  const probabilities = weights.map((w) => (totalWeight > 0 ? w / totalWeight : 0));
  // Summed in satang over the total weight, then divided once: no float drift per slice.
  const creditWeighted = slices.reduce(
    (sum, s, i) => (s.prizeType === 'credit' ? sum + (weights[i] ?? 0) * Math.round(s.prizeAmount * 100) : sum),
    0,
  );
  const expectedPayout = totalWeight > 0 ? creditWeighted / totalWeight / 100 : 0;
  const itemPrizes = slices.flatMap((s, i) => (s.prizeType === 'item' ? [i] : []));
  return { totalWeight, probabilities, expectedPayout, itemPrizes };
}

/** A probability as the player's spin page shows it (one decimal, two under 1 %). */
export function percent(probability: number): string {
  return `${(probability * 100).toFixed(probability > 0 && probability < 0.01 ? 2 : 1)}%`;
}
