#!/usr/bin/python3
"""Writes the libops fixtures: for each case a directory cases/<name>/ holding the call's arguments as
msprobe records them (call.json: {"api", "entry": {input_args, input_kwargs, output}, "rtol", "atol"}),
the input tensors under their data_name (.pt by torch.save, views saved as they are, or .npy), and the
outputs torch computes in float64 (expected.<i>.npy).

Run with Debian's python3-torch: /usr/bin/python3 tests/data/ops/gen_ops_fixtures.py
torch 1.13 has no scaled_dot_product_attention nor rms_norm: their expected values come from the
documented reference formulas, evaluated by torch in float64.
"""
import json
import math
import os
import shutil

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
torch.manual_seed(0)


class Case:
    def __init__(self, name, api, npy=False):
        self.name, self.api, self.npy = name, api, npy
        self.dir = os.path.join(ROOT, name)
        os.makedirs(self.dir)

    def arg(self, v, path):
        if isinstance(v, torch.Tensor):
            name = f"{self.api}.{path}.{'npy' if self.npy else 'pt'}"
            if self.npy:
                np.save(os.path.join(self.dir, name), v.numpy())
            else:
                torch.save(v, os.path.join(self.dir, name))
            return {"type": "torch.Tensor", "dtype": str(v.dtype), "shape": list(v.shape),
                    "requires_grad": False, "data_name": name}
        if isinstance(v, bool):
            return {"type": "bool", "value": v}
        if isinstance(v, int):
            return {"type": "int", "value": v}
        if isinstance(v, float):
            return {"type": "float", "value": v}
        if isinstance(v, str):
            return {"type": "str", "value": v}
        if isinstance(v, torch.dtype):
            return {"type": "torch.dtype", "value": str(v)}
        if v is None:
            return None
        if isinstance(v, (list, tuple)):
            return [self.arg(x, f"{path}.{i}") for i, x in enumerate(v)]
        raise TypeError(type(v))

    def write(self, args, kwargs, outputs, rtol=1e-12, atol=1e-12, why=None):
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        entry = {
            "input_args": [self.arg(a, f"input.{i}") for i, a in enumerate(args)],
            "input_kwargs": {k: self.arg(v, f"kwargs.{k}") for k, v in kwargs.items()},
            "output": [{"type": "torch.Tensor", "dtype": "torch.float64", "shape": list(o.shape)} for o in outputs],
        }
        call = {"api": self.api, "entry": entry, "rtol": rtol, "atol": atol}
        if why:
            call["why"] = why
        with open(os.path.join(self.dir, "call.json"), "w") as f:
            json.dump(call, f)
        for i, o in enumerate(outputs):
            np.save(os.path.join(self.dir, f"expected.{i}.npy"), o.detach().double().contiguous().numpy())


def d(t):
    """The float64 values the reference reads back from the stored tensor."""
    return t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t


def case(name, api, fn, args, kwargs=None, npy=False, **tol):
    kwargs = kwargs or {}
    c = Case(name, f"{api}.0.forward", npy)
    out = fn(*[d(a) if not isinstance(a, list) else [d(x) for x in a] for a in args],
             **{k: d(v) for k, v in kwargs.items()})
    c.write(args, kwargs, out, **tol)


def r(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(*shape, dtype=torch.float64) * scale).to(dtype)


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    # linear / matmul family
    case("linear_bias", "Functional.linear", F.linear, [r(2, 3, 8), r(4, 8), r(4)])
    case("linear_nobias_kw", "Functional.linear", F.linear, [r(5, 8)], {"weight": r(4, 8)})
    case("linear_weight_view", "Functional.linear", F.linear, [r(3, 6), r(6, 4, dtype=torch.float64).t()])
    case("matmul_1d_1d", "Torch.matmul", torch.matmul, [r(7), r(7)])
    case("matmul_1d_2d", "Torch.matmul", torch.matmul, [r(5), r(5, 3)])
    case("matmul_2d_1d", "Tensor.__matmul__", torch.matmul, [r(4, 5), r(5)])
    case("matmul_1d_3d", "Torch.matmul", torch.matmul, [r(5), r(2, 5, 3)])
    case("matmul_3d_1d", "Torch.matmul", torch.matmul, [r(2, 4, 5), r(5)])
    case("matmul_broadcast", "Torch.matmul", torch.matmul, [r(2, 1, 3, 4), r(5, 4, 2)])
    case("matmul_transposed_view", "Tensor.__matmul__", torch.matmul,
         [r(3, 4, dtype=torch.float64), r(5, 4, dtype=torch.float64).t()])
    case("mm_bf16", "Torch.mm", torch.mm, [r(3, 4, dtype=torch.bfloat16), r(4, 2, dtype=torch.float16)])
    case("bmm", "Torch.bmm", torch.bmm, [r(2, 3, 4), r(2, 4, 5)], npy=True)
    # conv2d
    case("conv2d_basic", "Functional.conv2d", F.conv2d, [r(1, 2, 5, 5), r(3, 2, 3, 3), r(3)])
    case("conv2d_stride_pad_tuple", "Functional.conv2d", F.conv2d, [r(2, 2, 6, 5), r(4, 2, 3, 2)],
         {"bias": r(4), "stride": (2, 1), "padding": (1, 2), "dilation": 1})
    case("conv2d_groups_dilation", "Functional.conv2d", F.conv2d, [r(1, 4, 7, 7), r(4, 2, 2, 3)],
         {"stride": 1, "padding": 2, "dilation": (2, 1), "groups": 2})
    case("conv2d_same_unbatched", "Functional.conv2d", F.conv2d, [r(2, 5, 6), r(3, 2, 4, 3)], {"padding": "same"})
    case("conv2d_valid_positional", "Functional.conv2d", F.conv2d, [r(1, 1, 4, 4), r(2, 1, 2, 2), None, 1, "valid"])
    # norms
    case("layer_norm", "Functional.layer_norm", F.layer_norm, [r(2, 3, 6), [6], r(6), r(6)], {"eps": 1e-5})
    case("layer_norm_2d_noaffine", "Functional.layer_norm", F.layer_norm, [r(3, 4, 5, scale=1e3), (4, 5)])
    rms = lambda x, g, epsilon=1e-6: (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon) * g,
                                       torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon))
    case("npu_rms_norm", "NPU.npu_rms_norm", rms, [r(2, 3, 8, dtype=torch.float16), r(8)], {"epsilon": 1e-5})
    case("torch_npu_rms_norm_default_eps", "Torch.npu_rms_norm", rms, [r(4, 6), r(6)])

    def rms_norm(x, shape, weight=None, eps=None):
        dims = tuple(range(-len(shape), 0))
        y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + (eps if eps is not None else torch.finfo(torch.float32).eps))
        return y * weight if weight is not None else y
    case("rms_norm_composite", "Functional.rms_norm", rms_norm, [r(3, 2, 4), [2, 4], r(2, 4)])
    # activations
    edge = torch.tensor([0.0, -0.0, 1e300, -1e300, float("nan"), float("inf"), -float("inf"), 3.5, -2.25],
                        dtype=torch.float64)
    case("gelu_none", "Functional.gelu", F.gelu, [r(3, 5, scale=3)])
    case("gelu_tanh", "Functional.gelu", F.gelu, [r(3, 5, scale=3)], {"approximate": "tanh"})
    case("silu", "Functional.silu", F.silu, [r(4, 4, scale=4)])
    case("relu_edges", "Functional.relu", F.relu, [edge])
    case("torch_relu", "Torch.relu", torch.relu, [r(6)])
    case("sigmoid", "Torch.sigmoid", torch.sigmoid, [r(10, scale=10)])
    case("f_sigmoid", "Functional.sigmoid", torch.sigmoid, [r(3, 2)], npy=True)
    case("tanh_edges", "Torch.tanh", torch.tanh, [edge])
    case("exp", "Torch.exp", torch.exp, [r(8, scale=5)])
    case("log_edges", "Torch.log", torch.log, [torch.tensor([0.0, 1.0, 1e-300, 1e300, -1.0, float("nan"), 2.5],
                                                             dtype=torch.float64)])
    case("sqrt", "Torch.sqrt", torch.sqrt, [r(6).abs()])
    case("rsqrt_edges", "Torch.rsqrt", torch.rsqrt, [torch.tensor([0.0, 4.0, 1e-300, -1.0], dtype=torch.float64)])
    # softmax
    case("softmax_dim_last", "Functional.softmax", F.softmax, [r(3, 5, scale=5)], {"dim": -1})
    # dtype= only picks the precision the op runs in: the float64 reference (and torch's expected) use float64.
    case("softmax_dim0_dtype", "Torch.softmax", lambda x, dim, dtype: torch.softmax(x, dim, dtype=torch.float64),
         [r(4, 3), 0], {"dtype": torch.float32})
    case("tensor_softmax_masked", "Tensor.softmax", torch.softmax,
         [torch.tensor([[1.0, -math.inf, 2.0], [-math.inf, -math.inf, -math.inf], [0.5, math.nan, 1.0]],
                       dtype=torch.float64), 1])
    case("log_softmax", "Functional.log_softmax", F.log_softmax, [r(2, 3, 4, scale=10)], {"dim": 1})
    # elementwise
    case("add_broadcast", "Torch.add", torch.add, [r(2, 3, 1), r(4)])
    case("add_alpha", "Torch.add", torch.add, [r(3, 4), r(4)], {"alpha": 2.5})
    case("tensor_add_scalar", "Tensor.add", torch.add, [r(3), 2])
    case("radd", "Tensor.__radd__", lambda s, o: o + s, [r(2, 2), 1.5])
    case("iadd_inplace", "Tensor.__iadd__", torch.add, [r(2, 3), r(3)])
    case("add_inplace_alpha", "Tensor.add_", torch.add, [r(2, 3), r(1, 3)], {"alpha": -1})
    case("sub_alpha", "Torch.sub", torch.sub, [r(3, 3), r(3, 1)], {"alpha": 3})
    case("rsub_scalar", "Tensor.__rsub__", lambda s, o: o - s, [r(4), 10])
    case("mul_float_scalar", "Tensor.__mul__", torch.mul, [r(3, 8), 1.03])
    case("mul_large", "Torch.mul", torch.mul, [torch.tensor([1e200, -1e200, 1e-200, 0.0], dtype=torch.float64),
                                                torch.tensor([1e200, 1e100, 1e-200, math.nan], dtype=torch.float64)])
    case("div_broadcast_zero", "Torch.div", torch.div,
         [torch.tensor([[1.0, -1.0, 0.0], [2.0, 3.0, 4.0]], dtype=torch.float64), torch.tensor([0.0, 0.0, 0.0],
                                                                                               dtype=torch.float64)])
    case("rtruediv", "Tensor.__rtruediv__", lambda s, o: o / s, [r(5), 1])
    case("truediv_int_tensors", "Tensor.__truediv__", torch.div,
         [torch.tensor([7, -7, 9], dtype=torch.int64), torch.tensor([2, 2, 4], dtype=torch.int32)])
    case("div_none_mode", "Tensor.div", torch.div, [r(2, 3), r(2, 3)], {"rounding_mode": None})
    # reductions
    case("sum_all", "Tensor.sum", torch.sum, [r(3, 4)])
    case("sum_dim_keepdim", "Torch.sum", torch.sum, [r(2, 3, 4), 1, True])
    case("sum_dims_list", "Torch.sum", torch.sum, [r(2, 3, 4)], {"dim": [0, -1]})
    case("mean_dim", "Tensor.mean", torch.mean, [r(4, 5)], {"dim": 1, "keepdim": False})
    case("mean_all_nan", "Torch.mean", torch.mean, [torch.tensor([1.0, math.nan], dtype=torch.float64)])
    case("sum_int", "Torch.sum", torch.sum, [torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)], {"dim": 0})
    # embedding, dropout
    case("embedding", "Functional.embedding", F.embedding, [torch.tensor([[0, 2], [4, 2]]), r(5, 3)],
         {"padding_idx": 0})
    case("dropout_eval", "Functional.dropout", F.dropout, [r(3, 3)], {"p": 0.1, "training": False})

    # attention: the documented reference formula
    def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
        L, S = q.size(-2), k.size(-2)
        factor = 1 / math.sqrt(q.size(-1)) if scale is None else scale
        bias = torch.zeros(L, S, dtype=q.dtype)
        if is_causal:
            bias.masked_fill_(torch.ones(L, S, dtype=torch.bool).tril().logical_not(), float("-inf"))
        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                attn_mask = torch.zeros_like(attn_mask, dtype=q.dtype).masked_fill(attn_mask.logical_not(), float("-inf"))
            bias = attn_mask.double() + bias
        w = torch.softmax(q @ k.transpose(-2, -1) * factor + bias, dim=-1)
        return w @ v
    case("sdpa_plain", "Functional.scaled_dot_product_attention", sdpa, [r(2, 2, 4, 8), r(2, 2, 5, 8), r(2, 2, 5, 6)])
    case("sdpa_causal_scale", "Functional.scaled_dot_product_attention", sdpa, [r(1, 3, 4), r(1, 3, 4), r(1, 3, 4)],
         {"is_causal": True, "scale": 0.3})
    mask = torch.tensor([[True, False, True, True, False], [False, False, False, False, False],
                         [True, True, True, True, True], [True, False, False, False, False]])
    case("sdpa_bool_mask_full_row", "Functional.scaled_dot_product_attention", sdpa,
         [r(2, 4, 8), r(2, 5, 8), r(2, 5, 3)], {"attn_mask": mask, "dropout_p": 0.0})
    add_mask = torch.randn(4, 5, dtype=torch.float64)
    add_mask[0, 1] = -math.inf
    case("sdpa_additive_mask", "Functional.scaled_dot_product_attention", sdpa,
         [r(1, 2, 4, 8), r(1, 2, 5, 8), r(1, 2, 5, 8), add_mask])
    # shape ops
    case("cat_dim1", "Torch.cat", torch.cat, [[r(2, 3), r(2, 1), r(2, 2, dtype=torch.float64).t()]], {"dim": 1})
    case("cat_skip_empty", "Torch.cat", torch.cat, [[r(3), torch.zeros(0), r(2)]])
    case("stack_neg_dim", "Torch.stack", torch.stack, [[r(2, 3), r(2, 3)], -1])
    case("transpose", "Torch.transpose", torch.transpose, [r(2, 3, 4), 0, 2])
    case("tensor_transpose_view", "Tensor.transpose", torch.transpose, [r(4, 3, dtype=torch.float64).t(), -1, 0])
    case("reshape_infer", "Torch.reshape", torch.reshape, [r(2, 6), (3, -1)])
    case("tensor_view_varargs", "Tensor.view", lambda x, *s: x.view(*s), [r(2, 6), 4, 3])
    case("tensor_reshape_list", "Tensor.reshape", lambda x, s: x.reshape(s), [r(2, 3, 2), [-1]])
    case("permute", "Torch.permute", torch.permute, [r(2, 3, 4), (2, 0, 1)])
    case("tensor_permute_varargs", "Tensor.permute", lambda x, *p: x.permute(*p), [r(2, 3, 4), 1, 2, 0])


if __name__ == "__main__":
    main()
