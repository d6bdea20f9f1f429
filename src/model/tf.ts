// The one place that imports tfjs. tfjs-core's Node entry (a CommonJS bundle) registers no
// gradients, and its ESM files with the gradient configs use extensionless imports that Node's
// ESM loader cannot resolve, so `tf.variableGrads` fails ("gradient function not found for Sum").
// We register the gradients of exactly the kernels the policy differentiates through, written
// after tfjs's own configs. The gather gradient uses scatterND instead of tfjs's
// unsortedSegmentSum, because the wasm backend has no UnsortedSegmentSum kernel: with this
// choice one code path trains on cpu and wasm alike.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';

export { tf };

type T = tf.Tensor;

/** Sum `dy` over the axes that broadcasting added to `shape`, back to `shape`. */
function unbroadcast(dy: T, shape: number[]): T {
  const axes = tf.broadcast_util.getReductionAxes(shape, dy.shape);
  return tf.reshape(axes.length > 0 ? tf.sum(dy, axes) : dy, shape);
}

const single = (dy: T | T[]): T => (Array.isArray(dy) ? dy[0]! : dy);

function register(config: tf.GradConfig): void {
  // Another copy of the configs (tfjs-node's full bundle, say) may have registered them already.
  if (tf.getGradient(config.kernelName) === undefined) tf.registerGradient(config);
}

let registered = false;

/** Idempotent: registers the gradients the policy and the trainer need. */
export function registerGradients(): void {
  if (registered) return;
  registered = true;
  register({
    kernelName: tf.Add,
    inputsToSave: ['a', 'b'],
    gradFunc: (dy, saved) => {
      const [a, b] = saved as [T, T];
      return { a: () => unbroadcast(single(dy), a.shape), b: () => unbroadcast(single(dy), b.shape) };
    },
  });
  register({
    kernelName: tf.Sub,
    inputsToSave: ['a', 'b'],
    gradFunc: (dy, saved) => {
      const [a, b] = saved as [T, T];
      return {
        a: () => unbroadcast(single(dy), a.shape),
        b: () => tf.neg(unbroadcast(single(dy), b.shape)),
      };
    },
  });
  register({
    kernelName: tf.Multiply,
    inputsToSave: ['a', 'b'],
    gradFunc: (dy, saved) => {
      const [a, b] = saved as [T, T];
      return {
        a: () => unbroadcast(tf.mul(single(dy), b), a.shape),
        b: () => unbroadcast(tf.mul(single(dy), a), b.shape),
      };
    },
  });
  register({
    kernelName: tf.Neg,
    gradFunc: (dy) => ({ x: () => tf.neg(single(dy)) }),
  });
  register({
    kernelName: tf.BatchMatMul,
    inputsToSave: ['a', 'b'],
    gradFunc: (dy, saved, attrs) => {
      const [a, b] = saved as [T, T];
      const g = single(dy);
      // Explicit transposes, not matMul's transpose flags: on the wasm backend a flagged matMul
      // takes a slow path (≈30× slower for the policy's [N × 251] · [251 × 64] shapes).
      const t = (x: T) => tf.transpose(x, x.rank === 3 ? [0, 2, 1] : [1, 0]);
      const ta = attrs.transposeA === true;
      const tb = attrs.transposeB === true;
      if (!ta && !tb) return { a: () => tf.matMul(g, t(b)), b: () => tf.matMul(t(a), g) };
      if (!ta && tb) return { a: () => tf.matMul(g, b), b: () => tf.matMul(t(g), a) };
      if (ta && !tb) return { a: () => tf.matMul(b, t(g)), b: () => tf.matMul(a, g) };
      return { a: () => tf.matMul(t(b), t(g)), b: () => tf.matMul(t(g), t(a)) };
    },
  });
  register({
    kernelName: tf.Relu,
    inputsToSave: ['x'],
    gradFunc: (dy, saved) => {
      const [x] = saved as [T];
      return { x: () => tf.mul(single(dy), tf.step(x)) };
    },
  });
  register({
    kernelName: tf.Tanh,
    outputsToSave: [true],
    gradFunc: (dy, saved) => {
      const [y] = saved as [T];
      return { x: () => tf.mul(single(dy), tf.sub(tf.scalar(1), tf.square(y))) };
    },
  });
  register({
    kernelName: tf.Exp,
    outputsToSave: [true],
    gradFunc: (dy, saved) => {
      const [y] = saved as [T];
      return { x: () => tf.mul(single(dy), y) };
    },
  });
  register({
    kernelName: tf.Log,
    inputsToSave: ['x'],
    gradFunc: (dy, saved) => {
      const [x] = saved as [T];
      return { x: () => tf.div(single(dy), x) };
    },
  });
  register({
    kernelName: tf.Sum,
    inputsToSave: ['x'],
    gradFunc: (dy, saved, attrs) => {
      const [x] = saved as [T];
      const rawAxes = attrs.axis as number | number[] | null | undefined;
      const axes = tf.util.parseAxisParam(rawAxes ?? x.shape.map((_, i) => i), x.shape);
      const kept = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
      return { x: () => tf.mul(tf.reshape(single(dy), kept), tf.ones(x.shape)) };
    },
  });
  register({
    kernelName: tf.Reshape,
    inputsToSave: ['x'],
    gradFunc: (dy, saved) => {
      const [x] = saved as [T];
      return { x: () => tf.reshape(single(dy), x.shape) };
    },
  });
  register({
    kernelName: tf.Concat,
    saveAllInputs: true,
    gradFunc: (dy, saved, attrs) => {
      const sizes = saved.map((t) => t.shape);
      const axis = tf.util.parseAxisParam(attrs.axis as number, saved[0]!.shape)[0]!;
      const parts = tf.split(
        single(dy),
        sizes.map((s) => s[axis]!),
        axis,
      );
      // tfjs's engine reads a saveAllInputs gradient map by input index.
      const out: Record<string, () => T> = {};
      parts.forEach((p, i) => {
        out[String(i)] = () => p;
      });
      return out;
    },
  });
  register({
    kernelName: tf.GatherV2,
    inputsToSave: ['x', 'indices'],
    gradFunc: (dy, saved, attrs) => {
      const [x, indices] = saved as [T, T];
      if ((attrs.axis as number) !== 0 || ((attrs.batchDims as number | undefined) ?? 0) !== 0) {
        throw new Error('the policy only differentiates gathers along axis 0');
      }
      return {
        x: () => {
          const n = indices.size;
          const rows = tf.reshape(single(dy), [n, ...x.shape.slice(1)]);
          return tf.scatterND(tf.reshape(indices, [n, 1]), rows, x.shape);
        },
        indices: () => tf.zerosLike(indices),
      };
    },
  });
  register({
    kernelName: tf.Softmax,
    outputsToSave: [true],
    gradFunc: (dy, saved, attrs) => {
      const [y] = saved as [T];
      const dim = attrs.dim as number | number[];
      const axis = Array.isArray(dim) ? dim[0]! : dim;
      const g = single(dy);
      return { logits: () => tf.mul(tf.sub(g, tf.sum(tf.mul(g, y), axis, true)), y) };
    },
  });
  register({
    kernelName: tf.Transpose,
    gradFunc: (dy, _saved, attrs) => {
      const perm = attrs.perm as number[];
      const inverse = perm.map((_, i) => perm.indexOf(i));
      return { x: () => tf.transpose(single(dy), inverse) };
    },
  });
}
