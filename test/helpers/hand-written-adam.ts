// The Adam the trainer wrote itself before it took tfjs's (src/model/optimizer.ts), kept as the
// reference the equivalence test and bench/adam.bench.ts hold tfjs's against: the same formulas,
// op for op, on the dense weights, the bias corrections in float64 from the step count, and the
// same lazy Adam on the embedding rows.
import {
  type AdamOptions,
  LazyRowAdam,
  momentFrames,
  type PolicyOptimizer,
  readMomentFrames,
  stateShapes,
  type TensorFrames,
  type TfjsPolicy,
} from '../../src/model/index.js';
import { tf } from '../../src/model/tf.js';

type Rows = Parameters<PolicyOptimizer['step']>[2];

export class HandWrittenAdam implements PolicyOptimizer {
  private readonly m = new Map<string, tf.Variable>();
  private readonly v = new Map<string, tf.Variable>();
  private readonly embedding: LazyRowAdam;
  private t = 0;

  constructor(
    private readonly policy: TfjsPolicy,
    private readonly o: AdamOptions,
  ) {
    for (const [name, variable] of policy.variables) {
      this.m.set(name, tf.variable(tf.zerosLike(variable), false));
      this.v.set(name, tf.variable(tf.zerosLike(variable), false));
    }
    this.embedding = new LazyRowAdam(policy.embedding, policy.options.embedDim, o);
  }

  get steps(): number {
    return this.t;
  }

  step(dense: ReadonlyMap<string, tf.Tensor>, scale: number, rows: Rows): void {
    this.t += 1;
    const { beta1, beta2, epsilon, learningRate } = this.o;
    const c1 = 1 - beta1 ** this.t;
    const c2 = 1 - beta2 ** this.t;
    tf.tidy(() => {
      for (const [name, raw] of dense) {
        const g = scale === 1 ? raw : tf.mul(raw, tf.scalar(scale));
        const m = this.m.get(name)!;
        const v = this.v.get(name)!;
        m.assign(tf.add(tf.mul(m, tf.scalar(beta1)), tf.mul(g, tf.scalar(1 - beta1))));
        v.assign(tf.add(tf.mul(v, tf.scalar(beta2)), tf.mul(tf.square(g), tf.scalar(1 - beta2))));
        const step = tf.div(
          tf.mul(m, tf.scalar(learningRate / c1)),
          tf.add(tf.sqrt(tf.mul(v, tf.scalar(1 / c2))), tf.scalar(epsilon)),
        );
        const p = this.policy.get(name);
        p.assign(tf.sub(p, step));
      }
    });
    if (rows) this.embedding.step(rows, scale, this.t);
  }

  async exportState(): Promise<TensorFrames> {
    return momentFrames(this.t, stateShapes(this.policy), (prefix, name) =>
      name === 'embedding'
        ? this.embedding[prefix]
        : ((prefix === 'm' ? this.m : this.v).get(name)!.dataSync() as Float32Array),
    );
  }

  async importState(state: TensorFrames): Promise<void> {
    const { t, moment } = readMomentFrames(state, stateShapes(this.policy));
    for (const [prefix, map] of [
      ['m', this.m],
      ['v', this.v],
    ] as const)
      for (const [name, variable] of map)
        variable.assign(tf.tensor(moment(prefix, name), variable.shape, 'float32'));
    this.embedding.m.set(moment('m', 'embedding'));
    this.embedding.v.set(moment('v', 'embedding'));
    this.t = t;
  }

  dispose(): void {
    for (const x of [...this.m.values(), ...this.v.values()]) x.dispose();
  }
}
