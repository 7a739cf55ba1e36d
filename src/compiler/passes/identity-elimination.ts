import { attrInt, attrInts, type Graph } from '../ir/graph.ts';
import { toIntArray } from '../ir/tensor.ts';
import { ChangeLog, type Pass } from './pass.ts';
import { bypassNode, constInput } from './util.ts';

/**
 * Removes nodes that compute their input unchanged at inference time: Identity, Dropout (its mask unused;
 * ONNX Dropout is the identity unless training_mode is true), Cast to the type the value already has, a
 * Transpose with the identity permutation and a Reshape to the shape the value already has.
 */
export const identityElimination: Pass = {
  name: 'identity-elimination',
  description: 'remove Identity, inference-mode Dropout, no-op Cast/Transpose/Reshape',
  run(g: Graph) {
    const log = new ChangeLog();
    const consumers = g.consumers();
    for (const n of [...g.nodes]) {
      if (n.domain !== '') continue;
      const input = n.inputs[0];
      const output = n.outputs[0];
      if (input === undefined || input === '' || output === undefined || output === '') continue;
      let why: string | undefined;
      switch (n.opType) {
        case 'Identity':
          why = 'Identity';
          break;
        case 'Dropout': {
          const mask = n.outputs[1];
          const maskUsed = mask !== undefined && mask !== '' && (consumers.has(mask) || g.isGraphOutput(mask));
          const training = n.inputs[2];
          const trainingOn =
            training !== undefined &&
            training !== '' &&
            (() => {
              const t = constInput(g, n, 2);
              return t === undefined || toIntArray(t)[0] !== 0;
            })();
          if (!maskUsed && !trainingOn) why = 'Dropout (inference)';
          break;
        }
        case 'Cast': {
          const from = g.typeOf(input)?.elemType;
          if (from !== undefined && from === attrInt(n, 'to', -1)) why = 'Cast to the same type';
          break;
        }
        case 'Transpose': {
          const perm = attrInts(n, 'perm');
          if (perm?.every((p, i) => p === i)) why = 'identity Transpose';
          break;
        }
        case 'Reshape': {
          const inShape = g.typeOf(input)?.shape;
          const target = constInput(g, n, 1);
          if (inShape != null && target !== undefined && inShape.every((d) => typeof d === 'number')) {
            const t = toIntArray(target);
            const same = t.length === inShape.length && t.every((d, i) => d === inShape[i] || (d === 0 && attrInt(n, 'allowzero', 0) === 0));
            if (same) why = 'Reshape to the same shape';
          }
          break;
        }
        default:
          break;
      }
      if (why !== undefined && bypassNode(g, n, input, output)) log.add(`removed ${why} '${n.name}'`);
    }
    return log.result();
  },
};
