import { attrFloat, type AttrValue, type Graph, type Node } from '../ir/graph.ts';
import { toFloat32 } from '../ir/tensor.ts';
import { ChangeLog, type Pass, type PassContext } from './pass.ts';
import { constInput, convOrGemmWithSoleConsumer, renameOutput } from './util.ts';

/** activation name and parameters as onnxruntime's FusedConv / FusedGemm spell them (contrib_defs.cc). */
function activationOf(g: Graph, act: Node): { name: string; params: number[] } | undefined {
  if (act.domain !== '') return undefined;
  switch (act.opType) {
    case 'Relu':
    case 'Sigmoid':
    case 'Tanh':
      return { name: act.opType, params: [] };
    case 'LeakyRelu':
      return { name: 'LeakyRelu', params: [attrFloat(act, 'alpha', 0.01)] };
    case 'HardSigmoid':
      return { name: 'HardSigmoid', params: [attrFloat(act, 'alpha', 0.2), attrFloat(act, 'beta', 0.5)] };
    case 'Clip': {
      if (g.opset >= 11) {
        const lo = act.inputs[1] !== undefined && act.inputs[1] !== '' ? constInput(g, act, 1) : undefined;
        const hi = act.inputs[2] !== undefined && act.inputs[2] !== '' ? constInput(g, act, 2) : undefined;
        if ((act.inputs[1] ?? '') !== '' && lo === undefined) return undefined;
        if ((act.inputs[2] ?? '') !== '' && hi === undefined) return undefined;
        const l = lo === undefined ? -3.4028234663852886e38 : (toFloat32(lo)[0] ?? 0);
        const h = hi === undefined ? 3.4028234663852886e38 : (toFloat32(hi)[0] ?? 0);
        return { name: 'Clip', params: [l, h] };
      }
      return { name: 'Clip', params: [attrFloat(act, 'min', -3.4028234663852886e38), attrFloat(act, 'max', 3.4028234663852886e38)] };
    }
    default:
      return undefined;
  }
}

/**
 * Fuses Conv/Gemm + activation into onnxruntime's com.microsoft FusedConv / FusedGemm (CPU kernels that apply
 * the activation in the same pass over the output). Only for the ort-cpu target at FP32: INT8 plans express
 * Relu through the quantization range instead, and the WebGPU provider does not register FusedGemm.
 */
export const activationFusion: Pass = {
  name: 'activation-fusion',
  description: 'fuse Conv/Gemm + Relu/LeakyRelu/Sigmoid/Tanh/Clip/HardSigmoid into com.microsoft FusedConv/FusedGemm (ort-cpu, fp32)',
  applies(ctx: PassContext) {
    return ctx.target === 'ort-cpu' && ctx.precision === 'fp32';
  },
  run(g: Graph) {
    const log = new ChangeLog();
    const consumers = g.consumers();
    const dead = new Set<Node>();
    for (const { producer: n, consumer: act, out } of convOrGemmWithSoleConsumer(g, consumers)) {
      if (g.typeOf(out)?.elemType !== 1) continue;
      const a = activationOf(g, act);
      if (a === undefined) continue;
      const attrs: [string, AttrValue][] = [['activation', { kind: 'string', value: a.name }]];
      if (n.opType === 'Conv') {
        if (a.params.length > 0) attrs.push(['activation_params', { kind: 'floats', value: a.params }]);
      } else {
        // FusedGemm names its parameters activation_alpha / activation_beta (contrib_defs.cc)
        if (a.name === 'Clip') continue; // FusedGemm takes no clip bounds
        if (a.params[0] !== undefined) attrs.push(['activation_alpha', { kind: 'float', value: a.params[0] }]);
        if (a.params[1] !== undefined) attrs.push(['activation_beta', { kind: 'float', value: a.params[1] }]);
      }
      const fusedOp = n.opType === 'Conv' ? 'FusedConv' : 'FusedGemm';
      n.opType = fusedOp;
      n.domain = 'com.microsoft';
      for (const [k, v] of attrs) n.attrs.set(k, v);
      renameOutput(n, out, act.outputs[0] ?? out);
      dead.add(act);
      if (!g.opsets.has('com.microsoft')) g.opsets.set('com.microsoft', 1);
      log.add(`fused ${act.opType} '${act.name}' into ${fusedOp} '${n.name}'`);
    }
    if (dead.size > 0) g.nodes = g.nodes.filter((x) => !dead.has(x));
    return log.result();
  },
};
