#!/usr/bin/env python3
"""Writes a test GGUF file: the header (version 3) of the model a real
config.json describes, every tensor named as llama.cpp's converter names it,
and a data region that is a hole (a sparse file: the tensors' bytes are
never read).

    make-gguf.py CONFIG.json OUT.gguf

Names and shapes: ggml-org/llama.cpp, gguf-py/gguf/constants.py
(TENSOR_NAMES) and tensor_mapping.py (which checkpoint module becomes which
tensor: Phi-3's self_attn.qkv_proj is attn_qkv, its mlp.gate_up_proj is
ffn_up, 2 x intermediate wide; Mixtral's experts are merged into
ffn_gate_exps, ffn_up_exps, ffn_down_exps, one tensor each for all the
experts). ggml lists the dimensions innermost first: a matrix of `out`
rows and `in` columns is [in, out], a merged expert tensor [in, out,
experts]. Types: Q8_0 (blocks of 32 values in 34 bytes) for the matrices,
F32 for the norms, as `llama-quantize ... Q8_0` leaves them. What a
published GGUF has and this one has not is said in README.md beside it.
"""
import json
import struct
import sys

F32, Q8_0 = 0, 8
BLOCK = {F32: (1, 4), Q8_0: (32, 34)}
ALIGN = 32


def llama(c):
    """Llama, Mistral and Mixtral: the GGUF architecture "llama"."""
    h, H, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // H
    I, V, E = c["intermediate_size"], c["vocab_size"], c.get("num_local_experts", 0)
    t = [("token_embd.weight", Q8_0, [h, V])]
    for i in range(c["num_hidden_layers"]):
        p = f"blk.{i}."
        t += [(p + "attn_norm.weight", F32, [h]),
              (p + "attn_q.weight", Q8_0, [h, H * d]),
              (p + "attn_k.weight", Q8_0, [h, kv * d]),
              (p + "attn_v.weight", Q8_0, [h, kv * d]),
              (p + "attn_output.weight", Q8_0, [H * d, h]),
              (p + "ffn_norm.weight", F32, [h])]
        if E:
            t += [(p + "ffn_gate_inp.weight", F32, [h, E]),
                  (p + "ffn_gate_exps.weight", Q8_0, [h, I, E]),
                  (p + "ffn_down_exps.weight", Q8_0, [I, h, E]),
                  (p + "ffn_up_exps.weight", Q8_0, [h, I, E])]
        else:
            t += [(p + "ffn_gate.weight", Q8_0, [h, I]),
                  (p + "ffn_down.weight", Q8_0, [I, h]),
                  (p + "ffn_up.weight", Q8_0, [h, I])]
    t += [("output_norm.weight", F32, [h]), ("output.weight", Q8_0, [h, V])]
    keys = {"block_count": c["num_hidden_layers"], "context_length": c["max_position_embeddings"],
            "embedding_length": h, "feed_forward_length": I, "attention.head_count": H,
            "attention.head_count_kv": kv, "vocab_size": V}
    if E:
        keys["expert_count"] = E
        keys["expert_used_count"] = c["num_experts_per_tok"]
    return "llama", keys, t


def phi3(c):
    h, H, kv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // H
    I, V = c["intermediate_size"], c["vocab_size"]
    t = [("token_embd.weight", Q8_0, [h, V])]
    for i in range(c["num_hidden_layers"]):
        p = f"blk.{i}."
        t += [(p + "attn_norm.weight", F32, [h]),
              (p + "attn_qkv.weight", Q8_0, [h, (H + 2 * kv) * d]),
              (p + "attn_output.weight", Q8_0, [H * d, h]),
              (p + "ffn_norm.weight", F32, [h]),
              (p + "ffn_up.weight", Q8_0, [h, 2 * I]),
              (p + "ffn_down.weight", Q8_0, [I, h])]
    t += [("output_norm.weight", F32, [h]), ("output.weight", Q8_0, [h, V])]
    keys = {"block_count": c["num_hidden_layers"], "context_length": c["max_position_embeddings"],
            "embedding_length": h, "feed_forward_length": I, "attention.head_count": H,
            "attention.head_count_kv": kv, "vocab_size": V}
    return "phi3", keys, t


def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def main():
    cfg_path, out = sys.argv[1], sys.argv[2]
    c = json.load(open(cfg_path))
    arch, keys, tensors = {"llama": llama, "mistral": llama, "mixtral": llama,
                           "phi3": phi3}[c["model_type"]](c)
    kv = [gstr("general.architecture") + struct.pack("<I", 8) + gstr(arch)]
    kv += [gstr(f"{arch}.{k}") + struct.pack("<I", 4) + struct.pack("<I", v)
           for k, v in keys.items()]
    infos, pos = [], 0
    for name, typ, dims in tensors:
        values = 1
        for x in dims:
            values *= x
        block, size = BLOCK[typ]
        nbytes = values // block * size
        infos.append(gstr(name) + struct.pack("<I", len(dims)) +
                     b"".join(struct.pack("<Q", x) for x in dims) +
                     struct.pack("<IQ", typ, pos))
        pos += -(-nbytes // ALIGN) * ALIGN
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kv)) + b"".join(kv) + b"".join(infos)
    head += b"\0" * (-len(head) % ALIGN)
    with open(out, "wb") as f:
        f.write(head)
        f.truncate(len(head) + pos)


main()
