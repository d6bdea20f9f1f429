// Two env sides, one without and one with a feature, timed in interleaved rounds on the same page
// (the screenshot and network-trace benches): a warm-up episode each, a fresh episode every 10
// rounds (untimed), the order alternating per round; ms per step of each round, by side.
import type { Side } from './env.bench.js';

export async function offOnRounds(
  off: Side,
  on: Side,
  start: string,
  rounds: number,
  stepsPerRound: number,
  /** after each episode of a side ends (untimed) */
  ended: (name: 'off' | 'on') => Promise<void> = async () => {},
): Promise<{ off: number[]; on: number[] }> {
  const sides: ['off' | 'on', Side][] = [
    ['off', off],
    ['on', on],
  ];
  const ms = { off: [] as number[], on: [] as number[] };
  const end = async (name: 'off' | 'on', side: Side) => {
    await side.end();
    await ended(name);
  };
  for (const [name, side] of sides) {
    await side.start(start);
    for (let s = 0; s < 5; s++) await side.step(s); // warm-up
    await end(name, side);
  }
  for (let round = 0; round < rounds; round++) {
    const first = round * stepsPerRound;
    if (round % 10 === 0)
      for (const [name, side] of sides) {
        if (round > 0) await end(name, side);
        await side.start(start);
      }
    for (const [name, side] of round % 2 === 0 ? sides : [...sides].reverse()) {
      const t0 = performance.now();
      for (let s = first; s < first + stepsPerRound; s++) await side.step(s);
      ms[name].push((performance.now() - t0) / stepsPerRound);
    }
  }
  for (const [name, side] of sides) await end(name, side);
  return ms;
}
