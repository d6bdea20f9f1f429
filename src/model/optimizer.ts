// Adam for the policy: tfjs's own (tf.train.adam) on the dense weights, and a lazy Adam on the
// embedding table, whose touched rows alone move. The table lives in JavaScript and a batch touches
// a few hundred of its 16,384 rows: a dense Adam would upload it and its gradient every update and
// move every untouched row by its momentum, and tfjs has no sparse Adam. Both share the step count,
// so their bias corrections agree; bench/adam.bench.ts and
// test/model/tfjs-adam-trains-the-weights-the-hand-written-adam-did compare it with the Adam this
// project wrote before, whose state format (t, m/NAME, v/NAME) it keeps.
import type { EmbeddingGradient } from './network.js';
import type { TfjsPolicy } from './policy.js';
import { tf } from './tf.js';
import type { TensorFrames } from './types.js';

export interface AdamOptions {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/** What the trainer asks of an optimizer; the equivalence test and the bench swap in another. */
export interface PolicyOptimizer {
  /** Updates made so far. */
  readonly steps: number;
  /**
   * One update: each dense weight named in `dense` by its gradient, the embedding rows in `rows`
   * by theirs, every gradient times `scale` (the global-norm clip). Weights not named keep their
   * value and their moments.
   */
  step(dense: ReadonlyMap<string, tf.Tensor>, scale: number, rows: EmbeddingGradient | null): void;
  /** The moments as frames: t (1 element), m/embedding, m/NAME…, v/embedding, v/NAME…. */
  exportState(): Promise<TensorFrames>;
  importState(state: TensorFrames): Promise<void>;
  dispose(): void;
}

/** Adam on the touched rows of the embedding table, in place, at step `t`. */
export class LazyRowAdam {
  readonly m: Float32Array;
  readonly v: Float32Array;

  constructor(
    private readonly table: Float32Array,
    private readonly width: number,
    private readonly o: AdamOptions,
  ) {
    this.m = new Float32Array(table.length);
    this.v = new Float32Array(table.length);
  }

  step(rows: EmbeddingGradient, scale: number, t: number): void {
    const { beta1, beta2, epsilon, learningRate } = this.o;
    const c1 = 1 - beta1 ** t;
    const c2 = 1 - beta2 ** t;
    const { table: E, m, v, width: d } = this;
    for (const row of rows.rows) {
      for (let k = row * d; k < row * d + d; k++) {
        const g = rows.gradient[k]! * scale;
        m[k] = beta1 * m[k]! + (1 - beta1) * g;
        v[k] = beta2 * v[k]! + (1 - beta2) * g * g;
        E[k]! -= (learningRate * m[k]!) / c1 / (Math.sqrt(v[k]! / c2) + epsilon);
      }
    }
  }
}

/** The checkpoint frames of `t` and the moments, in the order the format has always had. */
export function momentFrames(
  t: number,
  shapes: ReadonlyMap<string, readonly number[]>,
  moment: (prefix: 'm' | 'v', name: string) => Float32Array,
): TensorFrames {
  const specs: TensorFrames['specs'] = [{ name: 't', dtype: 'float32', shape: [1] }];
  const frames: Buffer[] = [Buffer.from(new Float32Array([t]).buffer)];
  for (const prefix of ['m', 'v'] as const)
    for (const [name, shape] of shapes) {
      const data = moment(prefix, name);
      specs.push({ name: `${prefix}/${name}`, dtype: 'float32', shape: [...shape] });
      frames.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
  return { specs, frames };
}

/**
 * Reads frames that momentFrames wrote, checking every shape against `shapes`; throws naming the
 * frame that is missing or has the wrong shape.
 */
export function readMomentFrames(
  state: TensorFrames,
  shapes: ReadonlyMap<string, readonly number[]>,
): { t: number; moment: (prefix: 'm' | 'v', name: string) => Float32Array } {
  const byName = new Map(state.specs.map((s, i) => [s.name, { spec: s, frame: state.frames[i] }]));
  const t = byName.get('t');
  if (t?.frame?.byteLength !== 4 || !t.frame) throw new Error('optimizer state has no step count "t"');
  const read = new Map<string, Float32Array>();
  for (const prefix of ['m', 'v'] as const)
    for (const [name, shape] of shapes) {
      const key = `${prefix}/${name}`;
      const entry = byName.get(key);
      if (!entry?.frame) throw new Error(`optimizer state has no ${key}`);
      const size = shape.reduce((a, b) => a * b, 1);
      if (entry.spec.shape.join(',') !== shape.join(',') || entry.frame.byteLength !== size * 4)
        throw new Error(
          `optimizer state ${key} has shape [${entry.spec.shape.join(',')}], the policy needs [${shape.join(',')}]`,
        );
      const data = new Float32Array(size);
      new Uint8Array(data.buffer).set(entry.frame);
      read.set(key, data);
    }
  const tData = new Float32Array(1);
  new Uint8Array(tData.buffer).set(t.frame);
  return { t: tData[0]!, moment: (prefix, name) => read.get(`${prefix}/${name}`)! };
}

/** The shapes the state holds: the embedding first, then every dense weight in the policy's order. */
export function stateShapes(policy: TfjsPolicy): Map<string, readonly number[]> {
  const shapes = new Map<string, readonly number[]>([
    ['embedding', [policy.options.buckets, policy.options.embedDim]],
  ]);
  for (const [name, variable] of policy.variables) shapes.set(name, variable.shape);
  return shapes;
}

/** tfjs's Adam on the dense weights, the lazy one on the embedding. */
export class PolicyAdam implements PolicyOptimizer {
  private readonly dense: tf.AdamOptimizer;
  private readonly embedding: LazyRowAdam;
  /**
   * Every dense weight, in the policy's order. tfjs's Adam keeps a weight's moments by its place in
   * the gradient list, so every update lists them all, the ones it leaves out with no gradient (as
   * tfjs's own Optimizer.minimize does for a weight the loss does not reach).
   */
  private readonly names: string[];

  constructor(
    private readonly policy: TfjsPolicy,
    o: AdamOptions,
  ) {
    this.dense = tf.train.adam(o.learningRate, o.beta1, o.beta2, o.epsilon);
    this.embedding = new LazyRowAdam(policy.embedding, policy.options.embedDim, o);
    this.names = [...policy.variables.keys()];
  }

  get steps(): number {
    return this.dense.iterations;
  }

  step(dense: ReadonlyMap<string, tf.Tensor>, scale: number, rows: EmbeddingGradient | null): void {
    tf.tidy(() => {
      const gradients = this.names.map((name) => {
        const g = dense.get(name);
        return {
          name: this.policy.get(name).name,
          tensor: (g === undefined || scale === 1 ? g : tf.mul(g, scale)) as tf.Tensor,
        };
      });
      this.dense.applyGradients(gradients);
    });
    if (rows) this.embedding.step(rows, scale, this.steps);
  }

  async exportState(): Promise<TensorFrames> {
    // [iter, m of each weight…, v of each weight…]; only iter before the first update.
    const [iter, ...moments] = await this.dense.getWeights();
    iter?.tensor.dispose();
    const at = new Map(this.names.map((name, i) => [name, i]));
    return momentFrames(this.steps, stateShapes(this.policy), (prefix, name) => {
      if (name === 'embedding') return this.embedding[prefix];
      const i = at.get(name)!;
      const moment = moments[prefix === 'm' ? i : this.names.length + i];
      return moment
        ? (moment.tensor.dataSync() as Float32Array)
        : new Float32Array(this.policy.get(name).size);
    });
  }

  /** On a fresh optimizer: tfjs's setWeights replaces its moments without disposing any. */
  async importState(state: TensorFrames): Promise<void> {
    const { t, moment } = readMomentFrames(state, stateShapes(this.policy));
    const tensors: Parameters<tf.AdamOptimizer['setWeights']>[0] = [
      { name: 'iter', tensor: tf.scalar(t, 'int32') },
    ];
    for (const prefix of ['m', 'v'] as const)
      for (const name of this.names) {
        const shape = this.policy.get(name).shape;
        tensors.push({
          name: `${name}/${prefix}`,
          tensor: tf.tensor(moment(prefix, name), shape, 'float32'),
        });
      }
    // setWeights makes each tensor a variable that shares (and holds) its data: ours can go.
    await this.dense.setWeights(tensors);
    tf.dispose(tensors.map((x) => x.tensor));
    this.embedding.m.set(moment('m', 'embedding'));
    this.embedding.v.set(moment('v', 'embedding'));
  }

  dispose(): void {
    this.dense.dispose();
  }
}
