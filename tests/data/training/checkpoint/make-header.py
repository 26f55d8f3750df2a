#!/usr/bin/env python3
"""Writes a test checkpoint: config.json and one model.safetensors whose
header names every tensor of the model with its dtype and shape, and whose
data region is a hole (a sparse file: the tensors' bytes are never read).

    make-header.py CONFIG.json OUT_FOLDER [INDEX.json]

With INDEX.json (a published model.safetensors.index.json), the names
written must be exactly the index's.

The names are those of the published checkpoints, the module tree of
transformers' modeling_mixtral.py, modeling_deepseek_v3.py,
modeling_phi3.py and modeling_qwen2_5_vl.py (see
README.md beside this script); every shape is computed from CONFIG.json.
"""
import json
import os
import struct
import sys


def mixtral(c):
    h, H, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // H
    I, E, V = c["intermediate_size"], c["num_local_experts"], c["vocab_size"]
    t = [("model.embed_tokens.weight", "BF16", [V, h])]
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t += [(p + "input_layernorm.weight", "BF16", [h]),
              (p + "post_attention_layernorm.weight", "BF16", [h]),
              (p + "self_attn.q_proj.weight", "BF16", [H * d, h]),
              (p + "self_attn.k_proj.weight", "BF16", [kv * d, h]),
              (p + "self_attn.v_proj.weight", "BF16", [kv * d, h]),
              (p + "self_attn.o_proj.weight", "BF16", [h, H * d]),
              (p + "block_sparse_moe.gate.weight", "BF16", [E, h])]
        for e in range(E):
            q = f"{p}block_sparse_moe.experts.{e}."
            t += [(q + "w1.weight", "BF16", [I, h]), (q + "w2.weight", "BF16", [h, I]),
                  (q + "w3.weight", "BF16", [I, h])]
    t += [("model.norm.weight", "BF16", [h]), ("lm_head.weight", "BF16", [V, h])]
    return t


def phi3(c):
    """Phi-3 (Phi-4): q, k and v fused in self_attn.qkv_proj, gate and up in
    mlp.gate_up_proj (transformers' modeling_phi3.py), as the published index
    names them."""
    h, H, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // H
    I, V = c["intermediate_size"], c["vocab_size"]
    t = [("model.embed_tokens.weight", "BF16", [V, h])]
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t += [(p + "input_layernorm.weight", "BF16", [h]),
              (p + "post_attention_layernorm.weight", "BF16", [h]),
              (p + "self_attn.qkv_proj.weight", "BF16", [(H + 2 * kv) * d, h]),
              (p + "self_attn.o_proj.weight", "BF16", [h, H * d]),
              (p + "mlp.gate_up_proj.weight", "BF16", [2 * I, h]),
              (p + "mlp.down_proj.weight", "BF16", [h, I])]
    t += [("model.norm.weight", "BF16", [h])]
    if not c.get("tie_word_embeddings"):
        t += [("lm_head.weight", "BF16", [V, h])]
    return t


def fp8(name, out, inp):
    """An FP8 matrix with its 128 x 128 block scales (weight_scale_inv)."""
    return [(name + ".weight", "F8_E4M3", [out, inp]),
            (name + ".weight_scale_inv", "F32", [-(-out // 128), -(-inp // 128)])]


def mlp(p, h, inter):
    return (fp8(p + "gate_proj", inter, h) + fp8(p + "up_proj", inter, h) +
            fp8(p + "down_proj", h, inter))


def deepseek_v3(c):
    h, H, V = c["hidden_size"], c["num_attention_heads"], c["vocab_size"]
    qr, kvr = c["q_lora_rank"], c["kv_lora_rank"]
    nope, rope, v = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    E, mi = c["n_routed_experts"], c["moe_intermediate_size"]
    L, mtp = c["num_hidden_layers"], c.get("num_nextn_predict_layers", 0)
    t = [("model.embed_tokens.weight", "BF16", [V, h])]
    for i in range(L + mtp):
        p = f"model.layers.{i}."
        t += [(p + "input_layernorm.weight", "BF16", [h]),
              (p + "post_attention_layernorm.weight", "BF16", [h])]
        a = p + "self_attn."
        if qr:
            t += fp8(a + "q_a_proj", qr, h) + [(a + "q_a_layernorm.weight", "BF16", [qr])]
            t += fp8(a + "q_b_proj", H * (nope + rope), qr)
        else:
            t += fp8(a + "q_proj", H * (nope + rope), h)
        t += fp8(a + "kv_a_proj_with_mqa", kvr + rope, h)
        t += [(a + "kv_a_layernorm.weight", "BF16", [kvr])]
        t += fp8(a + "kv_b_proj", H * (nope + v), kvr) + fp8(a + "o_proj", h, H * v)
        if i < c["first_k_dense_replace"]:
            t += mlp(p + "mlp.", h, c["intermediate_size"])
        else:
            t += [(p + "mlp.gate.weight", "BF16", [E, h]),
                  (p + "mlp.gate.e_score_correction_bias", "F32", [E])]
            for e in range(E):
                t += mlp(f"{p}mlp.experts.{e}.", h, mi)
            t += mlp(p + "mlp.shared_experts.", h, c["n_shared_experts"] * mi)
        if i >= L:  # the multi-token-prediction module
            t += [(p + "embed_tokens.weight", "BF16", [V, h]), (p + "enorm.weight", "BF16", [h]),
                  (p + "hnorm.weight", "BF16", [h]), (p + "eh_proj.weight", "BF16", [h, 2 * h]),
                  (p + "shared_head.norm.weight", "BF16", [h]),
                  (p + "shared_head.head.weight", "BF16", [V, h])]
    t += [("model.norm.weight", "BF16", [h]), ("lm_head.weight", "BF16", [V, h])]
    return t


def qwen2_5_vl(c):
    """Qwen2.5-VL: the language model of Qwen2 (q, k, v with biases) and the
    vision tower `visual.` (transformers' modeling_qwen2_5_vl.py: patch_embed
    a Conv3d; per block norm1, norm2, attn.qkv and attn.proj with biases,
    mlp.gate_proj, up_proj, down_proj with biases; the merger's ln_q,
    mlp.0 and mlp.2), as the published index names them."""
    h, H, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // H
    I, V, v = c["intermediate_size"], c["vocab_size"], c["vision_config"]
    t = [("model.embed_tokens.weight", "BF16", [V, h])]
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t += [(p + "input_layernorm.weight", "BF16", [h]),
              (p + "post_attention_layernorm.weight", "BF16", [h]),
              (p + "self_attn.q_proj.weight", "BF16", [H * d, h]),
              (p + "self_attn.q_proj.bias", "BF16", [H * d]),
              (p + "self_attn.k_proj.weight", "BF16", [kv * d, h]),
              (p + "self_attn.k_proj.bias", "BF16", [kv * d]),
              (p + "self_attn.v_proj.weight", "BF16", [kv * d, h]),
              (p + "self_attn.v_proj.bias", "BF16", [kv * d]),
              (p + "self_attn.o_proj.weight", "BF16", [h, H * d]),
              (p + "mlp.gate_proj.weight", "BF16", [I, h]),
              (p + "mlp.up_proj.weight", "BF16", [I, h]),
              (p + "mlp.down_proj.weight", "BF16", [h, I])]
    t += [("model.norm.weight", "BF16", [h]), ("lm_head.weight", "BF16", [V, h])]
    vh, vi, ps = v["hidden_size"], v["intermediate_size"], v["patch_size"]
    m = vh * v["spatial_merge_size"] ** 2
    t += [("visual.patch_embed.proj.weight", "BF16",
           [vh, v.get("in_chans", 3), v["temporal_patch_size"], ps, ps])]
    for i in range(v["depth"]):
        p = f"visual.blocks.{i}."
        t += [(p + "norm1.weight", "BF16", [vh]), (p + "norm2.weight", "BF16", [vh]),
              (p + "attn.qkv.weight", "BF16", [3 * vh, vh]), (p + "attn.qkv.bias", "BF16", [3 * vh]),
              (p + "attn.proj.weight", "BF16", [vh, vh]), (p + "attn.proj.bias", "BF16", [vh])]
        for n, o, k in (("gate_proj", vi, vh), ("up_proj", vi, vh), ("down_proj", vh, vi)):
            t += [(p + "mlp." + n + ".weight", "BF16", [o, k]), (p + "mlp." + n + ".bias", "BF16", [o])]
    t += [("visual.merger.ln_q.weight", "BF16", [vh]),
          ("visual.merger.mlp.0.weight", "BF16", [m, m]), ("visual.merger.mlp.0.bias", "BF16", [m]),
          ("visual.merger.mlp.2.weight", "BF16", [h, m]), ("visual.merger.mlp.2.bias", "BF16", [h])]
    return t


WIDTH = {"BF16": 2, "F32": 4, "F8_E4M3": 1}


def main():
    cfg_path, out = sys.argv[1], sys.argv[2]
    c = json.load(open(cfg_path))
    tensors = {"mixtral": mixtral, "deepseek_v3": deepseek_v3, "phi3": phi3,
               "qwen2_5_vl": qwen2_5_vl}[c["model_type"]](c)
    if len(sys.argv) > 3:  # the published index: its tensors must be these
        names = set(json.load(open(sys.argv[3]))["weight_map"])
        if names != {t[0] for t in tensors}:
            sys.exit("make-header.py: the tensors differ from the index's")
    hdr, pos = {}, 0
    for name, dt, shape in tensors:
        n = WIDTH[dt]
        for s in shape:
            n *= s
        hdr[name] = {"dtype": dt, "shape": shape, "data_offsets": [pos, pos + n]}
        pos += n
    text = json.dumps(hdr, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "config.json"), "wb") as f:
        f.write(open(cfg_path, "rb").read())
    with open(os.path.join(out, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.truncate(8 + len(text) + pos)


main()
