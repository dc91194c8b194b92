#!/usr/bin/python3
"""Writes synthetic verl train-vs-rollout dumps (msprobe L0 module dumps) for
`msprobe compare --consistent_check --backend fsdp|megatron`.

Run with Debian's torch 1.13: /usr/bin/python3 gen_verl_dump.py [OUT_DIR]   (default: this directory)
Writes OUT_DIR/{fsdp,megatron}/{tensor,stat}/{train,infer}/{dump.json,stack.json,construct.json
[,dump_tensor_data/*.pt]}. "train" is the target (-tp), "infer" the golden (-gp), as msprobe's verl
guide requires. Module names follow what msprobe's L0 dumper writes for the models the verl guides dump
(docs/en/dump/verl_{fsdp,megatron}_consistency_preprocess_dump.md): `Module.<module path>.<Class>.forward.<n>`,
forward entries in call-start order (the parent before its children), backward entries after them, the
outer module's backward first.
- FSDP train (Qwen3 under FSDP1): `Module._fsdp_wrapped_module.model.layers.0._fsdp_wrapped_module.self_attn
  .q_proj.Linear.forward.0`, activations [1, T, d] (remove-padding batch of one);
- Megatron train (GPTModel in Float16Module in DDP): `Module.module.module.decoder.layers.0.self_attention
  .linear_qkv.ColumnParallelLinear.forward.0`, activations [T, 1, d], linear layers returning (out, bias);
- vLLM rollout (both): `Module.model.layers.0.self_attn.qkv_proj.QKVParallelLinear.forward.0`, activations
  [T, d], parallel linear layers returning (out, None).
The rollout's fused tensors are the concatenations of the training ones (q|k|v, gate|up) plus a little noise;
one Megatron row has two rollout rows (mlp.gate_up_proj and shared_expert.gate_up_proj) to exercise the
golden-side aggregation. Statistics as gen_moe_dump.py. Deterministic (fixed seed).
"""
import os
import shutil
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "moe"))
from gen_moe_dump import Dump  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
T, D, DQ, DK, DV, I, V = 3, 4, 4, 2, 2, 3, 10


class ModDump(Dump):
    def struct(self, obj, prefix):
        if obj is None:
            return None
        if isinstance(obj, torch.Tensor):
            return self.tensor(obj, prefix)
        if isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str):
            return {"type": obj[0], "value": obj[1]}
        if isinstance(obj, list):
            return [self.struct(o, f"{prefix}.{i}") for i, o in enumerate(obj)]
        if isinstance(obj, dict):
            return {k: self.struct(v, f"{prefix}.{k}") for k, v in obj.items()}
        raise TypeError(type(obj))

    def module_fwd(self, name, args=(), kwargs=None, output=None, params=None):
        e = {"input_args": self.struct(list(args), name + ".input"),
             "input_kwargs": self.struct(kwargs or {}, name + ".kwargs"),
             "output": self.struct(output if isinstance(output, (list, dict)) else [output], name + ".output")}
        if params:
            e["parameters"] = self.struct(params, name + ".parameters")
        self.data[name] = e

    def module_bwd(self, name, grad_in, grad_out):
        self.data[name] = {"input": self.struct(grad_in, name + ".input"),
                           "output": self.struct(grad_out, name + ".output")}

    def params_grad(self, name, grads):
        self.data[name] = {k: [self.tensor(v, f"{name}.{k}")] for k, v in grads.items()}


def build(root, backend, task, g):
    def randn(*shape):
        return torch.randn(*shape, generator=g)

    def nz(t):
        return t + 1e-4 * randn(*t.shape)

    ids = torch.randint(0, V, (T,), generator=g, dtype=torch.int64)
    emb_w = randn(V, D)
    h0 = emb_w[ids]
    ln_w = torch.ones(D) + 0.1 * randn(D)
    wq, wk, wv, wo = randn(DQ, D), randn(DK, D), randn(DV, D), randn(D, DQ)
    wg, wu, wd = randn(I, D), randn(I, D), randn(D, I)
    qn_w = torch.ones(DQ) + 0.1 * randn(DQ)
    x = h0 * ln_w
    q, k, v = x @ wq.t(), x @ wk.t(), x @ wv.t()
    qn = q * qn_w
    attn = qn
    o = attn @ wo.t()
    h1 = h0 + o
    gt, up = h1 @ wg.t(), h1 @ wu.t()
    act = torch.nn.functional.silu(gt) * up
    dn = act @ wd.t()
    h2 = h1 + dn
    final = h2 * ln_w

    train = ModDump(os.path.join(root, "train"), task)
    infer = ModDump(os.path.join(root, "infer"), task)

    # ---------------- rollout (vLLM), the same for both backends ----------------
    L = "Module.model.layers.0."
    infer.module_fwd("Module.model.Qwen3Model.forward.0", [ids, None], {},
                     [nz(h2)])
    infer.module_fwd("Module.model.embed_tokens.VocabParallelEmbedding.forward.0", [ids], {}, [nz(h0)],
                     {"weight": emb_w})
    infer.module_fwd(L + "Qwen3DecoderLayer.forward.0", [None, nz(h0), None], {}, [nz(h2), None])
    infer.module_fwd(L + "input_layernorm.RMSNorm.forward.0", [nz(h0)], {}, [nz(x)], {"weight": ln_w})
    infer.module_fwd(L + "self_attn.qkv_proj.QKVParallelLinear.forward.0", [nz(x)], {},
                     [nz(torch.cat([q, k, v], -1)), None], {"weight": torch.cat([wq, wk, wv], 0)})
    infer.module_fwd(L + "self_attn.q_norm.RMSNorm.forward.0", [nz(q)], {}, [nz(qn)], {"weight": qn_w})
    infer.module_fwd(L + "self_attn.rotary_emb.RotaryEmbedding.forward.0", [ids, nz(q), nz(k)], {},
                     [nz(q), nz(k)])
    infer.module_fwd(L + "self_attn.o_proj.RowParallelLinear.forward.0", [nz(attn)], {}, [nz(o), None],
                     {"weight": wo})
    if backend == "megatron":
        infer.module_fwd(L + "mlp.gate_up_proj.MergedColumnParallelLinear.forward.0", [nz(h1)], {},
                         [nz(torch.cat([gt, up], -1)), None], {"weight": torch.cat([wg, wu], 0)})
        infer.module_fwd(L + "shared_expert.gate_up_proj.MergedColumnParallelLinear.forward.0", [nz(h1)], {},
                         [nz(torch.cat([gt, up], -1)), None], {"weight": torch.cat([wg, wu], 0)})
    else:
        infer.module_fwd(L + "mlp.gate_up_proj.MergedColumnParallelLinear.forward.0", [nz(h1)], {},
                         [nz(torch.cat([gt, up], -1)), None], {"weight": torch.cat([wg, wu], 0)})
    infer.module_fwd(L + "mlp.down_proj.RowParallelLinear.forward.0", [nz(act)], {}, [nz(dn), None],
                     {"weight": wd})
    infer.module_fwd("Module.model.norm.RMSNorm.forward.0", [nz(h2)], {}, [nz(final)], {"weight": ln_w})

    # ---------------- training engine ----------------
    if backend == "fsdp":
        b = lambda t: t.unsqueeze(0)  # noqa: E731  [T, d] -> [1, T, d]
        P = "Module._fsdp_wrapped_module.model."
        LT = P + "layers.0._fsdp_wrapped_module."
        train.module_fwd(P + "Qwen3Model.forward.0", [], {"input_ids": b(ids), "attention_mask": None},
                         {"last_hidden_state": b(h2)})
        train.module_fwd(P + "embed_tokens.Embedding.forward.0", [b(ids)], {}, [b(h0)], {"weight": emb_w})
        train.module_fwd(LT + "Qwen3DecoderLayer.forward.0", [b(h0)], {}, [b(h2)])
        train.module_fwd(LT + "input_layernorm.Qwen3RMSNorm.forward.0", [b(h0)], {}, [b(x)], {"weight": ln_w})
        train.module_fwd(LT + "self_attn.Qwen3Attention.forward.0", [], {"hidden_states": b(x)}, [b(o), None])
        train.module_fwd(LT + "self_attn.q_proj.Linear.forward.0", [b(x)], {}, [b(q)], {"weight": wq})
        train.module_fwd(LT + "self_attn.k_proj.Linear.forward.0", [b(x)], {}, [b(k)], {"weight": wk})
        train.module_fwd(LT + "self_attn.v_proj.Linear.forward.0", [b(x)], {}, [b(v)], {"weight": wv})
        train.module_fwd(LT + "self_attn.q_norm.Qwen3RMSNorm.forward.0", [b(q)], {}, [b(qn)], {"weight": qn_w})
        train.module_fwd(LT + "self_attn.o_proj.Linear.forward.0", [b(attn)], {}, [b(o)], {"weight": wo})
        train.module_fwd(LT + "mlp.Qwen3MLP.forward.0", [b(h1)], {}, [b(dn)])
        train.module_fwd(LT + "mlp.gate_proj.Linear.forward.0", [b(h1)], {}, [b(gt)], {"weight": wg})
        train.module_fwd(LT + "mlp.up_proj.Linear.forward.0", [b(h1)], {}, [b(up)], {"weight": wu})
        train.module_fwd(LT + "mlp.down_proj.Linear.forward.0", [b(act)], {}, [b(dn)], {"weight": wd})
        train.module_fwd(P + "norm.Qwen3RMSNorm.forward.0", [b(h2)], {}, [b(final)], {"weight": ln_w})
        # backward: outer module first; all of it is skipped by the parse rule
        train.module_bwd(P + "Qwen3Model.backward.0", [b(h2)], [None])
        train.module_bwd(P + "norm.Qwen3RMSNorm.backward.0", [b(final)], [b(h2)])
        train.module_bwd(LT + "mlp.down_proj.Linear.backward.0", [b(dn)], [b(act)])
        train.params_grad(LT + "mlp.down_proj.Linear.parameters_grad.0", {"weight": wd})
        # a second forward (e.g. the next micro-batch) resumes parsing at the Embedding forward
        train.module_fwd(P + "embed_tokens.Embedding.forward.1", [b(ids)], {}, [b(h0)], {"weight": emb_w})
    else:
        s = lambda t: t.unsqueeze(1)  # noqa: E731  [T, d] -> [T, 1, d]
        P = "Module.module.module."
        LT = P + "decoder.layers.0."
        train.module_fwd(P + "GPTModel.forward.0", [s(ids)], {"attention_mask": None}, [s(h2)])
        train.module_fwd(P + "embedding.word_embeddings.VocabParallelEmbedding.forward.0", [ids.unsqueeze(0)],
                         {}, [s(h0)], {"weight": emb_w})
        train.module_fwd(LT + "TransformerLayer.forward.0", [s(h0)], {}, [s(h2), None])
        train.module_fwd(LT + "input_layernorm.RMSNorm.forward.0", [s(h0)], {}, [s(x)], {"weight": ln_w})
        train.module_fwd(LT + "self_attention.linear_qkv.ColumnParallelLinear.forward.0", [s(x)], {},
                         [s(torch.cat([q, k, v], -1)), None], {"weight": torch.cat([wq, wk, wv], 0)})
        train.module_fwd(LT + "self_attention.q_layernorm.RMSNorm.forward.0", [q.reshape(T, 1, 2, DQ // 2)], {},
                         [qn.reshape(T, 1, 2, DQ // 2)], {"weight": qn_w})
        train.module_fwd(LT + "self_attention.core_attention.DotProductAttention.forward.0", [s(qn)], {},
                         [s(attn)])
        train.module_fwd(LT + "self_attention.linear_proj.RowParallelLinear.forward.0", [s(attn)], {},
                         [s(o), None], {"weight": wo})
        train.module_fwd(LT + "mlp.linear_fc1.ColumnParallelLinear.forward.0", [s(h1)], {},
                         [s(torch.cat([gt, up], -1)), None], {"weight": torch.cat([wg, wu], 0)})
        train.module_fwd(LT + "mlp.linear_fc2.RowParallelLinear.forward.0", [s(act)], {}, [s(dn), None],
                         {"weight": wd})
        train.module_fwd(P + "decoder.final_layernorm.RMSNorm.forward.0", [s(h2)], {}, [s(final)],
                         {"weight": ln_w})
        train.module_bwd(P + "GPTModel.backward.0", [s(h2)], [None])
        train.module_bwd(LT + "mlp.linear_fc2.RowParallelLinear.backward.0", [s(dn)], [s(act)])
        train.params_grad(LT + "mlp.linear_fc2.RowParallelLinear.parameters_grad.0", {"weight": wd})
    train.write()
    infer.write()


def main():
    out_root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    for backend in ("fsdp", "megatron"):
        shutil.rmtree(os.path.join(out_root, backend), ignore_errors=True)
    for backend in ("fsdp", "megatron"):
        for sub, task in (("tensor", "tensor"), ("stat", "statistics")):
            g = torch.Generator().manual_seed(31 if backend == "fsdp" else 37)
            build(os.path.join(out_root, backend, sub), backend, task, g)


if __name__ == "__main__":
    main()
