/*
 * The training recipe's arithmetic (decide/training.h) against published
 * figures and hand-worked items. Each figure is worked in its comment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "training.h"

static gs_dim S_dims[2] = { { "microbatch", 1 }, { "input_tokens", 2048 } };

/* A workload of the given geometry with a recipe; dims: microbatch, tokens. */
static void S_model(gs_workload *w, uint64_t P, uint64_t L, uint64_t heads, uint64_t kv,
		    uint64_t h, uint64_t inter, uint64_t vocab, uint64_t mb, uint64_t tokens)
{
	memset(w, 0, sizeof(*w));
	w->task = GS_TASK_TRAINING;
	w->parameters = P;
	w->layers = L;
	w->attention_heads = heads;
	w->kv_heads = kv;
	w->head_dim = h / heads;
	w->has_kv_geometry = 1;
	w->storage_bits = 16;
	w->storage_millibits = 16000;
	S_dims[0].value = mb;
	S_dims[1].value = tokens;
	w->dims = S_dims;
	w->ndims = 2;
	w->recipe.present = 1;
	w->recipe.hidden = h;
	w->recipe.intermediate = inter;
	w->recipe.vocab = vocab;
	w->recipe.has_hidden = w->recipe.has_intermediate = w->recipe.has_vocab = 1;
	w->recipe.cards = 1;
	w->recipe.accumulation = 1;
}

/* Llama-2-7B: 6,738,415,616 parameters, 32 layers, 32 heads (MHA), h 4,096,
 * intermediate 11,008, vocabulary 32,000 (its config.json). */
static void S_llama7b(gs_workload *w, uint64_t mb, uint64_t tokens)
{
	S_model(w, 6738415616ULL, 32, 32, 32, 4096, 11008, 32000, mb, tokens);
}

static uint64_t S_states(const gs_training *t)
{
	return t->items[GS_TI_WEIGHTS].per_card + t->items[GS_TI_ADAPTERS].per_card +
	       t->items[GS_TI_GRADIENTS].per_card + t->items[GS_TI_MASTER].per_card +
	       t->items[GS_TI_OPTIMIZER].per_card;
}

/*
 * ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054, §3.1 and Figure 1):
 * mixed-precision Adam keeps 2Ψ + 2Ψ + KΨ bytes, K = 12 (fp32 master,
 * momentum, variance): 16 B per parameter; for Ψ = 7.5 B on Nd = 64 cards
 * the figure's 120 GB (baseline), 31.4 GB (P_os), 16.6 GB (P_os+g) and
 * 1.9 GB (P_os+g+p):
 *   baseline  16 x 7.5e9                   = 120,000,000,000
 *   ZeRO-1    (2 + 2) x 7.5e9 + 12 x 7.5e9 / 64 = 30e9 + 1,406,250,000 = 31,406,250,000
 *   ZeRO-2    2 x 7.5e9 + 14 x 7.5e9 / 64 = 15e9 + 1,640,625,000 = 16,640,625,000
 *   ZeRO-3    16 x 7.5e9 / 64             = 1,875,000,000
 */
static void test_zero_paper(void)
{
	static const uint64_t want[4] = { 120000000000ULL, 31406250000ULL, 16640625000ULL,
					  1875000000ULL };
	static const gs_recipe_shard st[4] = { GS_SHARD_NONE, GS_SHARD_ZERO1, GS_SHARD_ZERO2,
					       GS_SHARD_ZERO3 };
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t wb = 15000000000ULL;   /* 7.5e9 x 2 B */
	int i;

	for (i = 0; i < 4; i++) {
		S_llama7b(&w, 1, 2048);
		w.parameters = 7500000000ULL;
		w.recipe.method = GS_METHOD_FULL;
		w.recipe.optimizer = GS_OPT_ADAMW;
		w.recipe.sharding = st[i];
		w.recipe.cards = i ? 64 : 1;
		CHECK(gs_training_size(&w, wb, &t, &err) == 0);
		CHECK_U64(S_states(&t), want[i]);
	}
	/* FSDP full shard divides as ZeRO-3 */
	w.recipe.sharding = GS_SHARD_FSDP;
	CHECK(gs_training_size(&w, wb, &t, &err) == 0);
	CHECK_U64(S_states(&t), 1875000000ULL);
}

/*
 * A 7B LoRA: rank 8 on q_proj and v_proj of Llama-2-7B, PEFT's
 * "trainable params: 4,194,304": per layer 8 x (4,096 + 4,096) x 2 =
 * 131,072, x 32 layers. Items: adapters and gradients 4 B each = 16,777,216;
 * AdamW 8 B = 33,554,432; no master (fp32 adapters); weights the
 * checkpoint's 13,476,831,232 B. Activations at microbatch 1 x 2,048, full
 * checkpointing: 2sbhL = 2 x 2,048 x 4,096 x 32 = 536,870,912 plus one
 * layer's 34sbh = 34 x 2,048 x 4,096 = 285,212,672: 822,083,584.
 * Logits: 2,048 x 32,000 x 4 = 262,144,000.
 */
static void test_lora_7b(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;

	S_llama7b(&w, 1, 2048);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 8;
	w.recipe.targets = GS_LORA_Q | GS_LORA_V;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 4194304);
	CHECK(gs_training_size(&w, 13476831232ULL, &t, &err) == 0);
	CHECK_U64(t.trainable, 4194304);
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 13476831232ULL);
	CHECK_U64(t.items[GS_TI_ADAPTERS].per_card, 16777216);
	CHECK_U64(t.items[GS_TI_GRADIENTS].per_card, 16777216);
	CHECK_U64(t.items[GS_TI_MASTER].per_card, 0);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 33554432);
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 822083584);
	CHECK_INT(t.items[GS_TI_ACTIVATIONS].prov, GS_PROV_ASSUMED);
	CHECK_U64(t.items[GS_TI_LOGITS].per_card, 262144000);
	CHECK_INT(t.items[GS_TI_LOGITS].prov, GS_PROV_CALCULATED);
	/* 13,476,831,232 + 16,777,216 x 2 + 33,554,432 + 822,083,584 + 262,144,000 */
	CHECK_U64(t.per_card, 14628167680ULL);
	CHECK_INT(t.prov, GS_PROV_ASSUMED);
	CHECK_U64(t.host, 0);
	/* the step is the peak, the load its weights and adapters */
	CHECK_INT(t.peak, GS_TP_FIRST_STEP);
	CHECK_U64(t.phases[GS_TP_LOAD], 13476831232ULL + 16777216);

	/* rank 16 on every projection of Llama-3.1-8B: 41,943,040, the figure
	 * of examples/lora-adapt (h 4,096, 8 KV heads, intermediate 14,336):
	 * per layer 16 x (8,192 + 5,120 + 5,120 + 8,192 + 3 x 18,432) =
	 * 1,310,720, x 32 */
	S_model(&w, 8030261248ULL, 32, 32, 8, 4096, 14336, 128256, 2, 2048);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = GS_LORA_ALL;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 41943040);
}

/*
 * Activations (Korthikanti et al. 2022, eq. 1) for s = 2,048, b = 1,
 * h = 4,096, a = 32, L = 32:
 *   per layer 34sbh = 285,212,672 and 5as²b = 5 x 32 x 2,048² = 671,088,640;
 *   none      (285,212,672 + 671,088,640) x 32 = 30,601,641,984
 *   selective 285,212,672 x 32 = 9,126,805,504
 *   full      2sbh x 32 + 34sbh = 536,870,912 + 285,212,672 = 822,083,584
 */
static void test_activations(void)
{
	gs_workload w;
	uint64_t v;

	S_llama7b(&w, 1, 2048);
	CHECK(gs_training_activations(&w, 1, 2048, GS_CKPT_NONE, &v) == 0);
	CHECK_U64(v, 30601641984ULL);
	CHECK(gs_training_activations(&w, 1, 2048, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 9126805504ULL);
	CHECK(gs_training_activations(&w, 1, 2048, GS_CKPT_FULL, &v) == 0);
	CHECK_U64(v, 822083584);
	/* linear in the microbatch */
	CHECK(gs_training_activations(&w, 4, 2048, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 4 * 9126805504ULL);
	/* beyond 64 bits: refused, not wrapped */
	CHECK(gs_training_activations(&w, UINT64_MAX / 2, 1ULL << 40, GS_CKPT_NONE, &v) == -1);
}

/*
 * A 7B full fine-tune, bf16, AdamW, ZeRO-2 over 4 cards:
 *   weights   2P = 13,476,831,232, replicated;
 *   gradients 2P / 4 = 3,369,207,808;
 *   master    4P / 4 = 6,738,415,616;
 *   AdamW     8P / 4 = 13,476,831,232;
 *   states per card (2 + 14 / 4) P = 37,061,285,888.
 * Over 1, 2, 4 and 8 cards under each stage, the states per card are
 * (P divides by 8, so every share is exact):
 *   none 16P = 107,814,649,856 on every card (replicated);
 *   ZeRO-1 4P + 12P/N: 67,384,156,160 / 47,168,909,312 / 37,061,285,888 at 2/4/8;
 *   ZeRO-2 2P + 14P/N: 60,645,740,544 / 37,061,285,888 / 25,269,058,560;
 *   ZeRO-3 and FSDP 16P/N: 53,907,324,928 / 26,953,662,464 / 13,476,831,232.
 */
static void test_sharding(void)
{
	static const uint64_t ns[4] = { 1, 2, 4, 8 };
	const uint64_t P = 6738415616ULL;
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	size_t i;
	int st;

	S_llama7b(&w, 1, 2048);
	w.recipe.method = GS_METHOD_FULL;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.sharding = GS_SHARD_ZERO2;
	w.recipe.cards = 4;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 2 * P, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 13476831232ULL);
	CHECK(!t.items[GS_TI_WEIGHTS].divided);
	CHECK_U64(t.items[GS_TI_GRADIENTS].per_card, 3369207808ULL);
	CHECK_U64(t.items[GS_TI_MASTER].per_card, 6738415616ULL);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 13476831232ULL);
	CHECK_U64(S_states(&t), 37061285888ULL);
	CHECK_U64(4 * P + 12 * P / 2, 67384156160ULL);
	CHECK_U64(2 * P + 14 * P / 8, 25269058560ULL);
	CHECK_U64(16 * P / 4, 26953662464ULL);
	for (st = GS_SHARD_NONE; st <= GS_SHARD_FSDP; st++)
		for (i = 0; i < 4; i++) {
			uint64_t n = st == GS_SHARD_NONE ? 1 : ns[i], want;
			w.recipe.sharding = (gs_recipe_shard)st;
			w.recipe.cards = n;
			CHECK(gs_training_size(&w, 2 * P, &t, &err) == 0);
			want = st == GS_SHARD_NONE ? 16 * P
			       : st == GS_SHARD_ZERO1 ? 4 * P + 12 * P / n
			       : st == GS_SHARD_ZERO2 ? 2 * P + 14 * P / n
						      : 16 * P / n;
			CHECK_U64(S_states(&t), want);
			/* activations and logits are every card's own */
			CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 822083584);
			CHECK(!t.items[GS_TI_ACTIVATIONS].divided && !t.items[GS_TI_LOGITS].divided);
		}
	/* a share that does not divide is rounded up per card: 3 cards */
	w.recipe.sharding = GS_SHARD_ZERO3;
	w.recipe.cards = 3;
	CHECK(gs_training_size(&w, 2 * P, &t, &err) == 0);
	/* 2P = 13,476,831,232 = 3 x 4,492,277,077 + 1 */
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 4492277078ULL);

	/* offload of the optimizer: states and master weights to host memory */
	w.recipe.cards = 4;
	w.recipe.sharding = GS_SHARD_ZERO2;
	w.recipe.offload = GS_OFFLOAD_OPTIMIZER;
	CHECK(gs_training_size(&w, 2 * P, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 0);
	CHECK_U64(t.items[GS_TI_MASTER].per_card, 0);
	/* host: 12P = 80,860,987,392 */
	CHECK_U64(t.host, 80860987392ULL);
	CHECK_U64(S_states(&t), 2 * P + 2 * P / 4);
}

/*
 * A 70B QLoRA on one card: Llama-2-70B (68,976,648,192 parameters, 80
 * layers, h 8,192, 64 heads, 8 KV heads, intermediate 28,672, vocabulary
 * 32,000). Linear layers per layer: attention 8,192 x 8,192 x 2 + 8,192 x
 * 1,024 x 2 = 150,994,944; MLP 3 x 8,192 x 28,672 = 704,643,072; x 80 =
 * Q = 68,451,041,280. The rest, 525,606,912, is the embeddings and the
 * head (2 x 32,000 x 8,192 = 524,288,000) and the norms (161 x 8,192 =
 * 1,318,912): exact. NF4 with double quantization:
 *   Q / 2 = 34,225,520,640; Q / 64 = 1,069,547,520 8-bit constants;
 *   4 x Q / 16,384 = 16,711,680; rest x 2 = 1,051,213,824;
 *   base = 36,362,993,664 B (33.87 GiB): 4.127 bits per quantized value as
 *   the QLoRA paper's §3 (4 + 8/64 + 32/(64 x 256)).
 * LoRA rank 64 on every projection (the paper's setting): per layer
 * 64 x (16,384 + 9,216 + 9,216 + 16,384 + 3 x 36,864) = 10,354,688, x 80 =
 * 828,375,040 trainable; paged 8-bit AdamW: 2 x 828,375,040 + 8 x
 * 404,480 = 1,659,985,920.
 */
static void test_qlora_70b(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };

	S_model(&w, 68976648192ULL, 80, 64, 8, 8192, 28672, 32000, 1, 512);
	w.recipe.method = GS_METHOD_QLORA;
	w.recipe.lora_rank = 64;
	w.recipe.targets = GS_LORA_ALL;
	w.recipe.optimizer = GS_OPT_ADAMW8BIT;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 137953296384ULL, &t, &err) == 0);
	CHECK_U64(t.quantized, 68451041280ULL);
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 36362993664ULL);
	CHECK_U64(t.trainable, 828375040ULL);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 1659985920ULL);
	CHECK_U64(t.items[GS_TI_ADAPTERS].per_card, 4ULL * 828375040ULL);
	/* a geometry larger than the parameters is refused, with the reason */
	w.parameters = 1000;
	CHECK(gs_training_size(&w, 2000, &t, &err) == -1);
	CHECK(strstr(gs_error_message(&err), "exceed") != NULL);
	gs_error_release(&err);
}

/*
 * An MoE LoRA: Mixtral-8x7B (46,702,792,704 parameters; 32 layers, h
 * 4,096, 32 heads, 8 KV heads, 8 experts of 14,336, 2 per token,
 * vocabulary 32,000). Linear layers: (8,192 x 4,096... ) attention
 * 4,096 x 4,096 x 2 + 4,096 x 1,024 x 2 = 41,943,040, experts 8 x 3 x
 * 4,096 x 14,336 = 1,409,286,144, x 32 = 46,439,333,888; the rest
 * 263,458,816 = embeddings and head 262,144,000 + routers 32 x 4,096 x 8 =
 * 1,048,576 + norms 65 x 4,096 = 266,240: exact.
 * LoRA rank 16 on q, k, v, o: 16 x (8,192 + 5,120 + 5,120 + 8,192) x 32 =
 * 13,631,488; on every projection, each expert's too: + 8 x 3 x 16 x
 * 18,432 x 32 = 226,492,416, 240,123,904 in all.
 * Activations at microbatch 4 x 4,096, full checkpointing: 2sbhL = 2 x
 * 16,384 x 4,096 x 32 = 4,294,967,296; one layer with 2 experts per token
 * of width 14,336: attention and norms 15sbh = 1,006,632,960, each expert
 * 3sbh + 4sb x 14,336 = 201,326,592 + 939,524,096 = 1,140,850,688, two of
 * them 2,281,701,376; layer 3,288,334,336; sum 7,583,301,632. Logits
 * 16,384 x 32,000 x 4 = 2,097,152,000.
 * ZeRO-3 over 4 cards: weights 93,405,585,408 / 4 = 23,351,396,352.
 */
static void test_moe_lora(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;

	S_model(&w, 46702792704ULL, 32, 32, 8, 4096, 14336, 32000, 4, 4096);
	w.recipe.experts = 8;
	w.recipe.experts_active = 2;
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	w.recipe.sharding = GS_SHARD_ZERO3;
	w.recipe.cards = 4;
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 46439333888ULL);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 13631488);
	w.recipe.targets = GS_LORA_ALL;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 240123904);
	w.recipe.targets = GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O;
	CHECK(gs_training_size(&w, 93405585408ULL, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 23351396352ULL);
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 7583301632ULL);
	CHECK_U64(t.items[GS_TI_LOGITS].per_card, 2097152000ULL);
	/* adapters 4T / 4 = 13,631,488; gradients 4T (ZeRO-2+) / 4 =
	 * 13,631,488; AdamW 8T / 4 = 27,262,976 */
	CHECK_U64(t.items[GS_TI_ADAPTERS].per_card, 13631488);
	CHECK_U64(t.items[GS_TI_GRADIENTS].per_card, 13631488);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 27262976);
	/* 23,351,396,352 + 13,631,488 x 2 + 27,262,976 + 7,583,301,632 +
	 * 2,097,152,000 = 33,086,375,936 */
	CHECK_U64(t.per_card, 33086375936ULL);
	/* one kind: 32 layers routing, none dense */
	CHECK_U64(t.kind_layers[0], 0);
	CHECK_U64(t.kind_layers[1], 32);
}

/* 8-bit AdamW, SGD and SGD with momentum on 1,000,000 trainable values. */
static void test_optimizers(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };

	S_llama7b(&w, 1, 16);
	w.parameters = 1000000;
	w.recipe.method = GS_METHOD_FULL;
	w.recipe.optimizer = GS_OPT_ADAMW8BIT;
	CHECK(gs_training_size(&w, 2000000, &t, &err) == 0);
	/* 2 x 1,000,000 + 8 x ceil(1,000,000 / 2,048) = 2,000,000 + 8 x 489 */
	CHECK_U64(t.items[GS_TI_OPTIMIZER].total, 2003912);
	w.recipe.optimizer = GS_OPT_SGD;
	CHECK(gs_training_size(&w, 2000000, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].total, 0);
	w.recipe.optimizer = GS_OPT_SGD_MOMENTUM;
	CHECK(gs_training_size(&w, 2000000, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].total, 4000000);
	/* fp32 training keeps no master copy; its gradients are 4 B */
	w.storage_bits = 32;
	w.storage_millibits = 32000;
	CHECK(gs_training_size(&w, 4000000, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_MASTER].total, 0);
	CHECK_U64(t.items[GS_TI_GRADIENTS].total, 4000000);
}

/*
 * Published: Qwen-7B LoRA on one A100-SXM4-80G (QwenLM/Qwen README,
 * "Profiling of Memory and Speed"): batch 1, bf16, flash attention 2,
 * gradient checkpointing, AdamW, rank 64 (finetune.py's defaults);
 * 20.1 G at 256 tokens to 36.6 G at 8,192 (tests/data/training/README.md).
 * Qwen-7B (its config.json): 32 layers, 32 heads, h 4,096, w1 and w2 of
 * 11,008 each, vocabulary 151,936, untied head: 7,721,324,544 parameters,
 * 15,442,649,088 B in bf16. LoRA on every projection: 64 x (4 x 8,192 +
 * 3 x 15,104) x 32 = 159,907,840; adapters and gradients x 4 B =
 * 639,631,360 each; AdamW x 8 B = 1,279,262,720.
 *   256:   activations 2 x 256 x 4,096 x 32 + 34 x 256 x 4,096 =
 *          102,760,448; logits 256 x 151,936 x 4 = 155,582,464;
 *          per card 18,259,517,440 (calculated items 18,156,756,992).
 *   8,192: activations 2,147,483,648 + 1,140,850,688 = 3,288,334,336;
 *          logits 8,192 x 151,936 x 4 = 4,978,638,848;
 *          per card 26,268,147,712.
 * The lengths between (published 20.4, 21.5, 23.8 and 29.7 G): the states
 * 18,001,174,528 + 2sbhL + 34sbh + s x 607,744 (logits) =
 *   512: 18,517,860,352; 1,024: 19,034,546,176; 2,048: 20,067,917,824;
 *   4,096: 22,134,661,120.
 */
static void test_qwen7b_published(void)
{
	static const uint64_t tokens[6] = { 256, 512, 1024, 2048, 4096, 8192 };
	static const uint64_t want[6] = { 18259517440ULL, 18517860352ULL, 19034546176ULL,
					  20067917824ULL, 22134661120ULL, 26268147712ULL };
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	int i;

	for (i = 0; i < 6; i++) {
		S_model(&w, 7721324544ULL, 32, 32, 32, 4096, 11008, 151936, 1, tokens[i]);
		w.recipe.method = GS_METHOD_LORA;
		w.recipe.lora_rank = 64;
		w.recipe.targets = GS_LORA_ALL;
		w.recipe.optimizer = GS_OPT_ADAMW;
		w.recipe.checkpointing = GS_CKPT_FULL;
		CHECK(gs_training_size(&w, 15442649088ULL, &t, &err) == 0);
		CHECK_U64(t.trainable, 159907840ULL);
		CHECK_U64(t.items[GS_TI_OPTIMIZER].per_card, 1279262720ULL);
		CHECK_U64(t.per_card, want[i]);
	}
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 3288334336ULL);
	CHECK_U64(t.items[GS_TI_LOGITS].per_card, 4978638848ULL);
}

/* DeepSeek-V3's geometry (R1's config.json): 61 layers, 3 of them dense,
 * 256 routed experts (8 active) and a shared one, MLA. */
static void S_deepseek_v3(gs_workload *w)
{
	S_model(w, 671026419200ULL, 61, 128, 128, 16384, 18432, 129280, 1, 4096);
	w->head_dim = 192;
	w->recipe.experts = 256;
	w->recipe.experts_active = 8;
	w->recipe.expert_intermediate = 2048;
	w->recipe.shared_intermediate = 2048;
	w->recipe.dense_layers = 3;
	w->recipe.hidden = 7168;
	w->recipe.mla = 1;
	w->recipe.mla_q_rank = 1536;
	w->recipe.mla_kv_rank = 512;
	w->recipe.mla_qk_nope = 128;
	w->recipe.mla_qk_rope = 64;
	w->recipe.mla_v = 128;
}

/*
 * Layer kinds: DeepSeek-R1 (DeepSeek-V3's geometry, its config.json): 61
 * layers, h 7,168, 128 heads; MLA with q_lora_rank 1,536, kv_lora_rank
 * 512, qk_nope 128, qk_rope 64, v 128; first_k_dense_replace 3 dense
 * layers of intermediate 18,432, then 58 layers of 256 routed experts of
 * 2,048 (8 per token) and one shared expert of 2,048.
 * Attention per layer: q_a 7,168 x 1,536 = 11,010,048; q_b 1,536 x 128 x
 * 192 = 37,748,736; kv_a 7,168 x 576 = 4,128,768; kv_b 512 x 128 x 256 =
 * 16,777,216; o 16,384 x 7,168 = 117,440,512; sum 187,105,280.
 * Dense MLP 3 x 7,168 x 18,432 = 396,361,728: a dense layer 583,467,008.
 * Experts 256 x 3 x 7,168 x 2,048 = 11,274,289,152 + shared 44,040,192:
 * an MoE layer 11,505,434,624.
 * Linear: 187,105,280 x 61 + 396,361,728 x 3 + 11,318,329,344 x 58 =
 * 11,413,422,080 + 1,189,085,184 + 656,463,101,952 = 669,065,609,216,
 * below the 671,026,419,200 parameters (embeddings, head, routers, norms).
 * LoRA rank 16 on o_proj, gate, up, down: o 16 x (16,384 + 7,168) x 61 =
 * 22,986,752; dense 3 x 16 x (7,168 + 18,432) x 3 = 3,686,400; experts
 * (256 + 1) x 3 x 16 x (7,168 + 2,048) x 58 = 6,593,937,408; sum
 * 6,620,610,560.
 * Activations, microbatch 1 of 4,096 tokens (sb = 4,096): MLA's attention
 * 3sbh 88,080,384 + 4sb x 128 x 192 402,653,184 + 4sb x 128 x 128
 * 268,435,456 + 4sb x 2,048 33,554,432 = 792,723,456; norms 4sbh
 * 117,440,512; dense MLP 19sbh 557,842,432: a dense layer 1,468,006,400;
 * an expert 3sbh + 4sb x 2,048 = 121,634,816, nine of them (8 routed + the
 * shared) 1,094,713,344: an MoE layer 2,004,877,312. Attention core 5as²b
 * = 5 x 128 x 4,096² = 10,737,418,240 per layer.
 *   none:      1,468,006,400 x 3 + 2,004,877,312 x 58 + 10,737,418,240 x 61
 *              = 775,669,415,936
 *   selective: 4,404,019,200 + 116,282,884,096 = 120,686,903,296
 *   full:      2sbh x 61 = 3,581,935,616 + the MoE layer 2,004,877,312
 *              = 5,586,812,928
 */
static void test_kinds_deepseek(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;

	S_deepseek_v3(&w);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = GS_LORA_O | GS_LORA_GATE | GS_LORA_UP | GS_LORA_DOWN;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 669065609216ULL);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 6620610560ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_NONE, &v) == 0);
	CHECK_U64(v, 775669415936ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 120686903296ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_FULL, &v) == 0);
	CHECK_U64(v, 5586812928ULL);
	CHECK(gs_training_size(&w, 1342052838400ULL, &t, &err) == 0);
	CHECK_U64(t.kind_layers[0], 3);
	CHECK_U64(t.kind_layers[1], 58);
	CHECK_U64(t.kind_linear[0], 583467008ULL);
	CHECK_U64(t.kind_linear[1], 11505434624ULL);
	/* no checkpointing, one layer: its kept terms + the core */
	CHECK_U64(t.kind_act[0], 1468006400ULL + 10737418240ULL);
	CHECK_U64(t.kind_act[1], 2004877312ULL + 10737418240ULL);
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 5586812928ULL);
	CHECK_U64(t.trainable, 6620610560ULL);
	/* evaluation holds the largest layer kind's activations: the MoE layer */
	CHECK_U64(t.phases[GS_TP_EVAL], 1342052838400ULL + 4ULL * 6620610560ULL +
		  2004877312ULL + 4096ULL * 129280 * 4 + 8ULL * 6620610560ULL);
}

/*
 * LoRA on multi-head latent attention's own projections, DeepSeek-V3's
 * geometry (h 7,168, 128 heads, q_lora_rank 1,536, kv_lora_rank 512, nope
 * 128, rope 64, v 128), rank 16, each adapter r x (in + out) at the shapes
 * of transformers' modeling_deepseek_v3.py (DeepseekV3Attention):
 *   q_a_proj            7,168 -> 1,536               16 x 8,704  = 139,264
 *   q_b_proj            1,536 -> 128 x 192 = 24,576  16 x 26,112 = 417,792
 *   kv_a_proj_with_mqa  7,168 -> 512 + 64 = 576      16 x 7,744  = 123,904
 *   kv_b_proj           512 -> 128 x 256 = 32,768    16 x 33,280 = 532,480
 *   o_proj              128 x 128 = 16,384 -> 7,168  16 x 23,552 = 376,832
 * one layer 1,590,272; x 61 = 97,006,592. With q_lora_rank null, q_proj
 * 7,168 -> 24,576: 16 x 31,744 = 507,904 a layer.
 */
static void test_lora_mla_targets(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;
	unsigned bad;

	S_deepseek_v3(&w);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	w.recipe.targets = GS_LORA_Q_A;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 139264ULL * 61);
	w.recipe.targets = GS_LORA_Q_B;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 417792ULL * 61);
	w.recipe.targets = GS_LORA_KV_A;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 123904ULL * 61);
	w.recipe.targets = GS_LORA_KV_B;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 532480ULL * 61);
	w.recipe.targets = GS_LORA_O;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 376832ULL * 61);
	/* "all-linear" on this model: the five projections and every MLP */
	w.recipe.targets = gs_recipe_resolve_targets(GS_LORA_ALL_LINEAR, 1, 1536, &bad);
	CHECK(bad == 0);
	CHECK(w.recipe.targets == (GS_LORA_Q_A | GS_LORA_Q_B | GS_LORA_KV_A | GS_LORA_KV_B |
				   GS_LORA_O | GS_LORA_MLP));
	w.recipe.targets &= ~(unsigned)GS_LORA_MLP;
	CHECK(gs_training_size(&w, 1342052838400ULL, &t, &err) == 0);
	CHECK_U64(t.trainable, 97006592ULL);
	CHECK_U64(t.items[GS_TI_ADAPTERS].total, 4ULL * 97006592);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].total, 8ULL * 97006592);
	/* q_lora_rank null: q_proj h -> H(nope + rope); q_a and q_b refused */
	w.recipe.mla_q_rank = 0;
	w.recipe.targets = GS_LORA_Q;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 507904ULL * 61);
	CHECK(gs_recipe_resolve_targets(GS_LORA_Q_A | GS_LORA_O, 1, 0, &bad) == GS_LORA_O);
	CHECK(bad == GS_LORA_Q_A);
	CHECK(gs_recipe_resolve_targets(GS_LORA_Q | GS_LORA_K, 1, 1536, &bad) == 0);
	CHECK(bad == (GS_LORA_Q | GS_LORA_K));
	/* other attention: q, k, v, o; "all-linear" as before */
	CHECK(gs_recipe_resolve_targets(GS_LORA_ALL_LINEAR, 0, 0, &bad) == GS_LORA_ALL);
	CHECK(bad == 0);
	CHECK(gs_recipe_resolve_targets(GS_LORA_KV_B | GS_LORA_V, 0, 0, &bad) == GS_LORA_V);
	CHECK(bad == GS_LORA_KV_B);
}

/*
 * Qwen3-30B-A3B (its config.json): 48 layers, all routing (decoder_sparse_step
 * 1, no mlp_only_layers), h 2,048, 32 heads, 4 KV heads of 128, 128 experts
 * of 768, 8 per token, no shared expert.
 * Attention 2,048 x 4,096 x 2 + 2,048 x 512 x 2 = 18,874,368; experts 128 x
 * 3 x 2,048 x 768 = 603,979,776; layer 622,854,144; x 48 = 29,896,998,912.
 * Activations at 1 x 4,096 (sbh = 8,388,608): attention 11sbh 92,274,688 +
 * norms 4sbh 33,554,432 + 8 experts x (3sbh + 4sb x 768 = 25,165,824 +
 * 12,582,912) 301,989,888 = 427,819,008 per layer (19sbh per expert, the
 * paper's MLP 4h = 8,192 wide, gave 167sbh = 1,400,897,536, 3.3 times as
 * much, for experts 768 wide);
 * full checkpointing 2sbh x 48 = 805,306,368 + 427,819,008 = 1,233,125,376.
 */
static void test_kinds_qwen3moe(void)
{
	gs_workload w;
	uint64_t v;

	S_model(&w, 30532122624ULL, 48, 32, 4, 4096, 6144, 151936, 1, 4096);
	w.head_dim = 128;
	w.recipe.hidden = 2048;
	w.recipe.experts = 128;
	w.recipe.experts_active = 8;
	w.recipe.expert_intermediate = 768;
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 29896998912ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 427819008ULL * 48);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_FULL, &v) == 0);
	CHECK_U64(v, 1233125376ULL);
}

/*
 * LoRA on bf16 weights against QLoRA on NF4 weights, one recipe:
 * Llama-3.1-8B (its config.json: 8,030,261,248 parameters, 32 layers, h
 * 4,096, 32 heads, 8 KV heads of 128, intermediate 14,336, vocabulary
 * 128,256), rank 64 on every projection, AdamW, full checkpointing,
 * microbatch 1 of 2,048 tokens (tests/data/training/README.md).
 * Linear layers Q: (4,096 x 4,096 x 2 + 4,096 x 1,024 x 2 + 3 x 4,096 x
 * 14,336) x 32 = 218,103,808 x 32 = 6,979,321,856.
 * bf16 base: 2 x 8,030,261,248 = 16,060,522,496.
 * NF4 base (bitsandbytes quantize_4bit, blocksize 64, compress_statistics):
 * Q / 2 = 3,489,660,928 packed + Q / 64 = 109,051,904 8-bit absmax + 4 x
 * Q / 16,384 = 1,703,936 fp32 second-level absmax + (8,030,261,248 -
 * Q) x 2 = 2,101,878,784 for the rest in bf16 = 5,702,295,552.
 * LoRA T = 64 x (8,192 + 5,120 + 5,120 + 8,192 + 3 x 18,432) x 32 =
 * 167,772,160: adapters 4T = gradients 671,088,640, AdamW 8T
 * 1,342,177,280. Activations 2sbh x 32 + 34sbh = 536,870,912 +
 * 285,212,672 = 822,083,584; logits 2,048 x 128,256 x 4 = 1,050,673,152.
 * Per card: LoRA 20,617,633,792; QLoRA 10,259,406,848.
 */
static void test_qlora_llama8b(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };

	S_model(&w, 8030261248ULL, 32, 32, 8, 4096, 14336, 128256, 1, 2048);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 64;
	w.recipe.targets = GS_LORA_ALL;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 16060522496ULL, &t, &err) == 0);
	CHECK_U64(t.trainable, 167772160ULL);
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].per_card, 822083584ULL);
	CHECK_U64(t.items[GS_TI_LOGITS].per_card, 1050673152ULL);
	CHECK_U64(t.per_card, 20617633792ULL);
	w.recipe.method = GS_METHOD_QLORA;
	CHECK(gs_training_size(&w, 16060522496ULL, &t, &err) == 0);
	CHECK_U64(t.quantized, 6979321856ULL);
	CHECK_U64(t.items[GS_TI_WEIGHTS].per_card, 5702295552ULL);
	CHECK_U64(t.per_card, 10259406848ULL);
}

/*
 * The trainable parameters from the checkpoint (recipe has_ck): LoRA rank
 * x the rows + columns each target's matrices hold, the geometry's figure
 * kept beside; full training every kind within the layers, the layer
 * beyond (MTP) and the quantisation scales left out; QLoRA's Q the
 * checkpoint's linear layers. The roles of the checkpoint are the
 * recipe's target names, in the same order.
 */
static void test_from_checkpoint(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	size_t i;

	/* the checkpoint's roles are the first targets (the state mixers'
	 * names follow them, sized from the geometry only) */
	for (i = 0; i < GS_MODEL_LORA_ROLES; i++)
		CHECK_STR(gs_model_lora_roles[i], gs_recipe_target_names[i]);
	CHECK(gs_model_lora_roles[GS_MODEL_LORA_ROLES] == NULL);
	S_llama7b(&w, 1, 2048);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 8;
	w.recipe.targets = GS_LORA_Q | GS_LORA_V;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	w.recipe.has_ck = 1;
	/* a checkpoint whose q_proj matrices hold 100 rows + columns in all,
	 * v_proj 60 (the geometry would give 8 x 8,192 x 32 each) */
	w.recipe.ck.lora_io[0] = 100;
	w.recipe.ck.lora_io[4] = 60;
	CHECK(gs_training_size(&w, 13476839424ULL, &t, &err) == 0);
	CHECK_INT(t.from_ck, 1);
	CHECK_U64(t.trainable, 8 * 160);
	CHECK_U64(t.trainable_config, 2ULL * 8 * 8192 * 32);
	CHECK_U64(t.items[GS_TI_ADAPTERS].total, 4 * 8 * 160);
	w.recipe.method = GS_METHOD_FULL;
	w.recipe.ck.total = 7000000000ULL;
	w.recipe.ck.params[GS_PK_BEYOND] = 300000000ULL;
	w.recipe.ck.params[GS_PK_SCALE] = 1000000ULL;
	w.recipe.ck_config_params = 6738415616ULL;
	CHECK(gs_training_size(&w, 13476839424ULL, &t, &err) == 0);
	CHECK_U64(t.trainable, 6699000000ULL);
	CHECK_U64(t.trainable_config, 6738415616ULL);
	CHECK_U64(t.items[GS_TI_MASTER].total, 4ULL * 6699000000ULL);
	w.recipe.method = GS_METHOD_QLORA;
	w.recipe.ck.linear = 6000000000ULL;
	CHECK(gs_training_size(&w, 13476839424ULL, &t, &err) == 0);
	CHECK_U64(t.quantized, 6000000000ULL);
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 3000000000ULL + 93750000ULL +
		  4ULL * 366211 + 2ULL * (6738415616ULL - 6000000000ULL));
}

/*
 * LoRA on fused linear modules (tests/data/training/README.md, "Fused
 * projections"): PEFT puts one adapter on each nn.Linear, r x (in + out),
 * out the fused width. Phi-3-mini-4k (tests/data/models/phi-3-mini-4k:
 * h 3,072, 32 heads and 32 KV heads of 96, intermediate 8,192, 32 layers),
 * rank 16:
 *   qkv_proj     3,072 -> (32 + 2 x 32) x 96 = 9,216: 16 x 12,288 = 196,608
 *   o_proj       3,072 -> 3,072:               16 x 6,144  =  98,304
 *   gate_up_proj 3,072 -> 2 x 8,192 = 16,384:  16 x 19,456 = 311,296
 *   down_proj    8,192 -> 3,072:               16 x 11,264 = 180,224
 * a layer 786,432, x 32 = 25,165,824; init's default (qkv_proj, o_proj)
 * 294,912 x 32 = 9,437,184. Phi-4 (h 5,120, 40 heads, 10 KV heads of 128,
 * intermediate 17,920, 40 layers): qkv 16 x (5,120 + 7,680) = 204,800, o
 * 163,840, gate_up 16 x (5,120 + 35,840) = 655,360, down 16 x 23,040 =
 * 368,640; a layer 1,392,640, x 40 = 55,705,600. GPT-NeoX (Pythia-1B:
 * h 2,048, 8 heads of 256, intermediate 8,192, 16 layers), rank 8:
 * query_key_value 8 x (2,048 + 6,144) = 65,536, dense 8 x 4,096 = 32,768,
 * dense_h_to_4h and dense_4h_to_h 8 x 10,240 = 81,920 each: 262,144 a
 * layer, x 16 = 4,194,304; its linear layers 4 x 2,048² + 2 x 2,048 x
 * 8,192 = 50,331,648 a layer (no gate).
 */
static void test_lora_fused(void)
{
	gs_workload w;
	uint64_t v = 0;
	unsigned bad;

	S_model(&w, 3821079552ULL, 32, 32, 32, 3072, 8192, 32064, 1, 4096);
	w.recipe.names = GS_LORA_NAMES_PHI3;
	w.recipe.lora_rank = 16;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
					     gs_recipe_modules(GS_LORA_NAMES_PHI3, 0, 0), &bad);
	CHECK_U64(bad, 0);
	CHECK_U64(w.recipe.targets, GS_LORA_QKV | GS_LORA_O | GS_LORA_GATE_UP | GS_LORA_DOWN);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 25165824);
	w.recipe.targets = GS_LORA_QKV | GS_LORA_O;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 9437184);
	/* q_proj on Phi-3: no module of that name, refused naming qkv_proj */
	gs_recipe_resolve(GS_LORA_Q | GS_LORA_O, gs_recipe_modules(GS_LORA_NAMES_PHI3, 0, 0), &bad);
	CHECK_U64(bad, GS_LORA_Q);
	{
		char *msg = gs_recipe_bad_target(GS_LORA_Q, GS_LORA_NAMES_PHI3, 0, 0);
		CHECK(strstr(msg, "fuses it into qkv_proj") != NULL);
		free(msg);
	}
	/* Phi-4 */
	S_model(&w, 14659507200ULL, 40, 40, 10, 5120, 17920, 100352, 1, 4096);
	w.head_dim = 128;
	w.recipe.names = GS_LORA_NAMES_PHI3;
	w.recipe.lora_rank = 16;
	w.recipe.targets = GS_LORA_ALL_FUSED;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 55705600);
	/* Pythia-1B */
	S_model(&w, 1011781632ULL, 16, 8, 8, 2048, 8192, 50304, 1, 2048);
	w.recipe.names = GS_LORA_NAMES_NEOX;
	w.recipe.lora_rank = 8;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
					     gs_recipe_modules(GS_LORA_NAMES_NEOX, 0, 0), &bad);
	CHECK_U64(w.recipe.targets, GS_LORA_ALL_NEOX);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 4194304);
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 50331648ULL * 16);
	/* gpt-oss-20b (tests/data/models/gpt-oss-20b: h 2,880, 64 heads and 8
	 * KV heads of 64, 24 layers, 32 experts of 2,880), rank 16: its
	 * experts are 3-D parameters, so all-linear is q, k, v, o: q 16 x
	 * (2,880 + 4,096) = 111,616, k and v 16 x (2,880 + 512) = 54,272
	 * each, o 111,616; 331,776 a layer, x 24 = 7,962,624 */
	S_model(&w, 20914757184ULL, 24, 64, 8, 2880, 2880, 201088, 1, 4096);
	w.head_dim = 64;
	w.recipe.names = GS_LORA_NAMES_GPT_OSS;
	w.recipe.experts_param = 1;
	w.recipe.experts = 32;
	w.recipe.experts_active = 4;
	w.recipe.lora_rank = 16;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
					     gs_recipe_modules(GS_LORA_NAMES_GPT_OSS, 0, 0), &bad);
	CHECK_U64(w.recipe.targets, GS_LORA_ALL & ~(unsigned)GS_LORA_MLP);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 7962624);
	gs_recipe_resolve(GS_LORA_GATE, gs_recipe_modules(GS_LORA_NAMES_GPT_OSS, 0, 0), &bad);
	CHECK_U64(bad, GS_LORA_GATE);
	/* Llama 4's routed experts are 3-D parameters too; its shared expert
	 * (gate_proj, up_proj, down_proj) is linear: with experts_param an
	 * MLP target adapts the shared expert only. h 5,120, shared 8,192,
	 * rank 8, down_proj: 8 x (8,192 + 5,120) = 106,496 a layer, x 48 */
	S_model(&w, 1, 48, 40, 8, 5120, 16384, 202048, 1, 4096);
	w.recipe.experts = 16;
	w.recipe.experts_active = 1;
	w.recipe.expert_intermediate = 8192;
	w.recipe.shared_intermediate = 8192;
	w.recipe.experts_param = 1;
	w.recipe.lora_rank = 8;
	w.recipe.targets = GS_LORA_DOWN;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 106496ULL * 48);
}

/*
 * Nemotron-3-Nano-30B-A3B (tests/data/models/nemotron-3-nano-30b-a3b,
 * config.json): 31,577,940,288 parameters, 52 layers by
 * hybrid_override_pattern: 23 Mamba2 (M), 6 attention (*), 23 MoE (E), no
 * dense MLP (-); h 2,688, 32 heads of 128, 2 KV heads; Mamba2 64 heads of
 * 64 (d_inner 4,096), state 128, 8 groups; 128 routed experts of 1,856,
 * 6 per token, one shared expert of 3,712; relu2 MLPs without gate; one
 * norm per layer; vocabulary 131,072. Modules of transformers'
 * modeling_nemotron_h.py (NemotronHAttention, NemotronHMamba2Mixer,
 * NemotronHMLP, NemotronHMoE).
 */
static void S_nemotron_h(gs_workload *w)
{
	S_model(w, 31577940288ULL, 52, 32, 2, 2688, 1856, 131072, 1, 4096);
	w->head_dim = 128;
	w->recipe.experts = 128;
	w->recipe.experts_active = 6;
	w->recipe.expert_intermediate = 1856;
	w->recipe.shared_intermediate = 3712;
	w->recipe.names = GS_LORA_NAMES_NEMOTRON_H;
	w->recipe.hybrid = 1;
	w->recipe.norms = 1;
	w->recipe.mix[GS_MIXER_MAMBA2][0] = 23;
	w->recipe.mix[GS_MIXER_ATTENTION][0] = 6;
	w->recipe.mix[GS_MIXER_NONE][2] = 23;
	w->recipe.state.ssm_heads = 64;
	w->recipe.state.ssm_head_dim = 64;
	w->recipe.state.ssm_state = 128;
	w->recipe.state.ssm_groups = 8;
}

/*
 * Nemotron-H per layer kind, b = 1, s = 4,096 (sb = 4,096), every figure
 * by hand:
 * Linear parameters of one layer:
 *  - attention: q 2,688 x 4,096 + k, v 2 x 2,688 x 256 + o 4,096 x 2,688
 *    = 11,010,048 + 1,376,256 + 11,010,048 = 23,396,352;
 *  - Mamba2: in_proj 2,688 x (2 x 4,096 + 2 x 8 x 128 + 64 = 10,304) +
 *    out_proj 4,096 x 2,688 = 2,688 x 14,400 = 38,707,200;
 *  - MoE: 128 x 2 x 2,688 x 1,856 + 2 x 2,688 x 3,712 = 1,277,165,568 +
 *    19,955,712 = 1,297,121,280 (the router a parameter, not linear).
 *  All: 6 x 23,396,352 + 23 x 38,707,200 + 23 x 1,297,121,280 =
 *  140,378,112 + 890,265,600 + 29,833,789,440 = 30,864,433,152.
 * LoRA rank 16 on all-linear (q, k, v, o, in_proj, out_proj, up, down):
 *  - attention 16 x ((2,688 + 4,096) + 2 x (2,688 + 256) + (4,096 +
 *    2,688)) = 16 x 19,456 = 311,296, x 6 = 1,867,776;
 *  - Mamba2 16 x ((2,688 + 10,304) + (4,096 + 2,688)) = 16 x 19,776 =
 *    316,416, x 23 = 7,277,568;
 *  - MoE 128 x 16 x 2 x (2,688 + 1,856) + 16 x 2 x (2,688 + 3,712) =
 *    18,612,224 + 204,800 = 18,817,024, x 23 = 432,791,552;
 *  T = 441,936,896.
 * Activations of one layer without checkpointing (the norm 2sbh =
 * 22,020,096 in each):
 *  - attention: 11sbh = 121,110,528 + core 5as²b = 5 x 32 x 4,096² =
 *    2,684,354,560; 2,827,485,184;
 *  - Mamba2 (mamba_split_conv1d_scan_combined's saved tensors): in_proj's
 *    input 2sbh 22,020,096 + zxbcdt 2 x 4,096 x 10,304 = 84,410,368 +
 *    out_x 2 x 4,096 x 4,096 = 33,554,432 + rstd 4 x 4,096 x 8 = 131,072;
 *    162,136,064;
 *  - MoE: 6 x (3sbh + 4sb·1,856) = 6 x (33,030,144 + 30,408,704) =
 *    380,633,088 + shared 33,030,144 + 4 x 4,096 x 3,712 = 93,847,552;
 *    496,500,736.
 *  None: 6 x 2,827,485,184 + 23 x 162,136,064 + 23 x 496,500,736 =
 *  16,964,911,104 + 3,729,129,472 + 11,419,516,928 = 32,113,557,504;
 *  selective, the six cores dropped: - 16,106,127,360 = 16,007,430,144;
 *  full: 2sbh x 52 = 1,145,044,992 + the largest kind recomputed (the
 *  MoE's 496,500,736; attention's without its core 143,130,624) =
 *  1,641,545,728.
 */
static void test_hybrid_nemotron_h(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;
	unsigned bad;
	size_t i;

	S_nemotron_h(&w);
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 30864433152ULL);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
					     gs_recipe_modules(GS_LORA_NAMES_NEMOTRON_H, 0, 0), &bad);
	CHECK(bad == 0);
	CHECK(!(w.recipe.targets & GS_LORA_GATE));
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 441936896ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_NONE, &v) == 0);
	CHECK_U64(v, 32113557504ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 16007430144ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_FULL, &v) == 0);
	CHECK_U64(v, 1641545728ULL);
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 63155880576ULL, &t, &err) == 0);
	CHECK_U64(t.trainable, 441936896ULL);
	CHECK_U64(t.items[GS_TI_ACTIVATIONS].total, 1641545728ULL);
	/* the kinds in mixer order: none + MoE, attention, Mamba2 */
	CHECK(t.nhy == 3);
	{
		static const uint64_t layers[3] = { 23, 6, 23 },
				      linear[3] = { 1297121280ULL, 23396352ULL, 38707200ULL },
				      act[3] = { 496500736ULL, 2827485184ULL, 162136064ULL };
		for (i = 0; i < 3 && i < t.nhy; i++) {
			CHECK_U64(t.hy[i].layers, layers[i]);
			CHECK_U64(t.hy[i].linear, linear[i]);
			CHECK_U64(t.hy[i].act, act[i]);
		}
	}
	/* gate_proj is no module of Nemotron-H: refused with the names it has */
	gs_recipe_resolve(GS_LORA_GATE, gs_recipe_modules(GS_LORA_NAMES_NEMOTRON_H, 0, 0), &bad);
	CHECK(bad == GS_LORA_GATE);
	{
		char *msg = gs_recipe_bad_target(GS_LORA_GATE, GS_LORA_NAMES_NEMOTRON_H, 0, 0);
		CHECK(strstr(msg, "no gate") != NULL);
		CHECK(strstr(msg, "in_proj, out_proj, up_proj, down_proj") != NULL);
		free(msg);
	}
}

/*
 * Qwen3-Next-80B-A3B (tests/data/models/qwen3-next-80b-a3b-thinking,
 * config.json): 79,674,391,296 parameters, 48 layers, full attention every
 * 4th (12), Gated DeltaNet the others (36), each followed by the sparse MoE
 * block; h 2,048, 16 heads of 256 (q_proj twice wide for the output gate),
 * 2 KV heads; Gated DeltaNet 16 key heads of 128 (Kd 2,048), 32 value
 * heads of 128 (Vd 4,096); 512 experts of 512, 10 per token, a shared
 * expert of 512; two norms per layer; vocabulary 151,936.
 * transformers' modeling_qwen3_next.py (Qwen3NextAttention,
 * Qwen3NextGatedDeltaNet, Qwen3NextSparseMoeBlock).
 */
static void S_qwen3_next(gs_workload *w)
{
	S_model(w, 79674391296ULL, 48, 16, 2, 2048, 5120, 151936, 1, 4096);
	w->head_dim = 256;
	w->recipe.experts = 512;
	w->recipe.experts_active = 10;
	w->recipe.expert_intermediate = 512;
	w->recipe.shared_intermediate = 512;
	w->recipe.names = GS_LORA_NAMES_QWEN3_NEXT;
	w->recipe.hybrid = 1;
	w->recipe.q_gate = 1;
	w->recipe.norms = 2;
	w->recipe.mix[GS_MIXER_ATTENTION][2] = 12;
	w->recipe.mix[GS_MIXER_GDN][2] = 36;
	w->recipe.state.lin_kh = 16;
	w->recipe.state.lin_kd = 128;
	w->recipe.state.lin_vh = 32;
	w->recipe.state.lin_vd = 128;
}

/*
 * Qwen3-Next per layer kind, b = 1, s = 4,096, by hand:
 * Linear parameters of one layer:
 *  - attention: q 2,048 x 8,192 + k, v 2 x 2,048 x 512 + o 4,096 x 2,048
 *    = 16,777,216 + 2,097,152 + 8,388,608 = 27,262,976;
 *  - Gated DeltaNet: in_proj_qkvz 2,048 x (2 x 2,048 + 2 x 4,096) +
 *    in_proj_ba 2,048 x 64 + out_proj 4,096 x 2,048 = 25,165,824 +
 *    131,072 + 8,388,608 = 33,685,504;
 *  - MoE: 512 x 3 x 2,048 x 512 + 3 x 2,048 x 512 = 1,610,612,736 +
 *    3,145,728 = 1,613,758,464 (the routers apart, below);
 *  attention + MoE 1,641,021,440, x 12 = 19,692,257,280; Gated DeltaNet +
 *  MoE 1,647,443,968, x 36 = 59,307,982,848; all 79,000,240,128.
 * The linear routers (nn.Linear: mlp.gate h -> 512, shared_expert_gate
 * h -> 1) in each of the 48 MoE layers: 48 x (2,048 x 512 + 2,048) =
 * 50,429,952; QLoRA's NF4 part 79,000,240,128 + 50,429,952 =
 * 79,050,670,080.
 * LoRA rank 16 on all-linear (q, k, v, o, in_proj_qkvz, in_proj_ba,
 * out_proj, gate_proj, up, down, shared_expert_gate and the router gate):
 *  - attention 16 x ((2,048 + 8,192) + 2 x (2,048 + 512) + (4,096 +
 *    2,048)) = 16 x 21,504 = 344,064;
 *  - Gated DeltaNet 16 x ((2,048 + 12,288) + (2,048 + 64) + (4,096 +
 *    2,048)) = 16 x 22,592 = 361,472;
 *  - MoE 512 x 16 x 3 x (2,048 + 512) + 16 x 3 x 2,560 + 16 x (2,048 + 1)
 *    + the router 16 x (2,048 + 512) = 62,914,560 + 122,880 + 32,784 +
 *    40,960 = 63,111,184;
 *  T = 12 x 63,455,248 + 36 x 63,472,656 = 761,462,976 + 2,285,015,616 =
 *  3,046,478,592.
 * Activations of one layer without checkpointing (two norms 4sbh =
 * 33,554,432 and the MoE 11 x (3sbh + 4sb·512) = 11 x 33,554,432 =
 * 369,098,752 in each):
 *  - attention: 11sbh 92,274,688 + the output gate 4sb·4,096 = 67,108,864
 *    + core 5 x 16 x 4,096² = 1,342,177,280; 1,904,214,016;
 *  - Gated DeltaNet: 2sbh 16,777,216 + 4sb·Kd 33,554,432 + 10sb·Vd
 *    167,772,160 + 4sb·32·128 67,108,864 + 128sb·32 16,777,216 + 26sb·32
 *    3,407,872 = 305,397,760; 708,050,944.
 *  None: 12 x 1,904,214,016 + 36 x 708,050,944 = 22,850,568,192 +
 *  25,489,833,984 = 48,340,402,176; selective, the twelve cores dropped:
 *  - 16,106,127,360 = 32,234,274,816; full: 2sbh x 48 = 805,306,368 + the
 *  Gated DeltaNet layer's 708,050,944 (attention's without its core
 *  562,036,736) = 1,513,357,312.
 */
static void test_hybrid_qwen3_next(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;
	unsigned bad;

	S_qwen3_next(&w);
	w.recipe.extra = gs_recipe_extra_modules(GS_ARCH_QWEN3_NEXT, 1);
	CHECK(gs_training_linear_params(&w, &v) == 0);
	CHECK_U64(v, 79000240128ULL);
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
					     gs_recipe_modules(GS_LORA_NAMES_QWEN3_NEXT, 0, 0) |
					     w.recipe.extra, &bad);
	CHECK(bad == 0);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 3046478592ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_NONE, &v) == 0);
	CHECK_U64(v, 48340402176ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_SELECTIVE, &v) == 0);
	CHECK_U64(v, 32234274816ULL);
	CHECK(gs_training_activations(&w, 1, 4096, GS_CKPT_FULL, &v) == 0);
	CHECK_U64(v, 1513357312ULL);
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 159348782592ULL, &t, &err) == 0);
	CHECK(t.nhy == 2);
	if (t.nhy == 2) {
		CHECK_U64(t.hy[0].linear, 1641021440ULL);
		CHECK_U64(t.hy[0].act, 1904214016ULL);
		CHECK_U64(t.hy[1].linear, 1647443968ULL);
		CHECK_U64(t.hy[1].act, 708050944ULL);
	}
	/* QLoRA's NF4 part: the linear layers and routers above */
	w.recipe.method = GS_METHOD_QLORA;
	CHECK(gs_training_size(&w, 159348782592ULL, &t, &err) == 0);
	CHECK_U64(t.quantized, 79050670080ULL);
	/* Mamba2's in_proj is no module of Qwen3-Next */
	gs_recipe_resolve(GS_LORA_IN, gs_recipe_modules(GS_LORA_NAMES_QWEN3_NEXT, 0, 0), &bad);
	CHECK(bad == GS_LORA_IN);
}

/*
 * The routers under "all-linear" (recipe.h gs_recipe_extra_modules): PEFT
 * adapts every nn.Linear but the head, so a router that is one gets an
 * adapter, r x (h + experts) per MoE layer. Mixtral-8x7B (32 layers, h
 * 4,096, 8 experts), rank 16: block_sparse_moe.gate 16 x (4,096 + 8) =
 * 65,664 a layer, x 32 = 2,101,248, beside the 240,123,904 of q, k, v, o
 * and every expert's gate, up, down: 242,225,152 (the checkpoint's
 * header gives the same: gate.weight [8, 4,096] per layer). Qwen3-Next's
 * shared_expert_gate h -> 1: 16 x (2,048 + 1) = 32,784 a layer, and its
 * gate 16 x (2,048 + 512) = 40,960 (h 2,048, 512 experts; 48 layers, the
 * attention and MLP not named here). Llama 4's router (Llama4Router
 * subclasses nn.Linear): h 5,120, 16 experts, rank 8: 8 x 5,136 = 41,088
 * a MoE layer, x 24 MoE layers of 48 = 986,112. DeepSeek-V3's router is
 * a parameter (DeepseekV3TopkRouter.weight): none, and "gate" refused.
 */
static void test_lora_routers(void)
{
	gs_workload w;
	uint64_t v = 0;
	unsigned bad, has;
	const char *name;

	S_model(&w, 46702792704ULL, 32, 32, 8, 4096, 14336, 32000, 4, 4096);
	w.recipe.experts = 8;
	w.recipe.experts_active = 2;
	w.recipe.lora_rank = 16;
	has = gs_recipe_modules(GS_LORA_NAMES_SEPARATE, 0, 0) |
	      gs_recipe_extra_modules(GS_ARCH_MIXTRAL, 1);
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR, has, &bad);
	CHECK_U64(bad, 0);
	CHECK_U64(w.recipe.targets, GS_LORA_ALL | GS_LORA_ROUTER_GATE);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 242225152ULL);
	w.recipe.targets = GS_LORA_ROUTER_GATE;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 2101248ULL);
	/* QLoRA: the linear routers in NF4 too, 8 x 4,096 x 32 = 1,048,576
	 * beside the 46,439,333,888 of the attention and the experts */
	w.recipe.method = GS_METHOD_QLORA;
	w.recipe.extra = GS_LORA_ROUTER_GATE;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	{
		gs_training t;
		gs_error err = { 0 };
		CHECK(gs_training_size(&w, 93405585408ULL, &t, &err) == 0);
		CHECK_U64(t.quantized_config, 46440382464ULL);
		/* from the checkpoint: its linear matrices and its routers' */
		w.recipe.has_ck = 1;
		w.recipe.ck.linear = 46439333888ULL;
		w.recipe.ck.router_linear = 1048576;
		CHECK(gs_training_size(&w, 93405585408ULL, &t, &err) == 0);
		CHECK_U64(t.quantized, 46440382464ULL);
		w.recipe.extra = 0;   /* a parameter router (DeepSeek-V3's): not in NF4 */
		CHECK(gs_training_size(&w, 93405585408ULL, &t, &err) == 0);
		CHECK_U64(t.quantized, 46439333888ULL);
		w.recipe.has_ck = 0;
	}
	/* a dense Mixtral-named model has no router: none */
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_MIXTRAL, 0), 0);
	/* Qwen3-Next: gate and shared_expert_gate */
	S_model(&w, 1, 48, 16, 2, 2048, 5120, 151936, 1, 4096);
	w.recipe.experts = 512;
	w.recipe.experts_active = 10;
	w.recipe.lora_rank = 16;
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_QWEN3_NEXT, 1),
		  GS_LORA_ROUTER_GATE | GS_LORA_SHARED_GATE);
	w.recipe.targets = GS_LORA_SHARED_GATE;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 32784ULL * 48);
	w.recipe.targets = GS_LORA_ROUTER_GATE | GS_LORA_SHARED_GATE;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, (32784ULL + 40960ULL) * 48);
	/* Llama 4: the router, on its 24 MoE layers only */
	S_model(&w, 1, 48, 40, 8, 5120, 16384, 202048, 1, 4096);
	w.recipe.experts = 16;
	w.recipe.experts_active = 1;
	w.recipe.dense_layers = 24;
	w.recipe.experts_param = 1;
	w.recipe.lora_rank = 8;
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_LLAMA4, 1), GS_LORA_ROUTER);
	w.recipe.targets = GS_LORA_ROUTER;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 986112ULL);
	/* DeepSeek-V3, gpt-oss, Nemotron-H: parameter routers, none */
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_DEEPSEEK_V3, 1), 0);
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_GPT_OSS, 1), 0);
	CHECK_U64(gs_recipe_extra_modules(GS_ARCH_NEMOTRON_H, 1), 0);
	gs_recipe_resolve(GS_LORA_ROUTER_GATE, gs_recipe_modules(GS_LORA_NAMES_SEPARATE, 1, 1536),
			  &bad);
	CHECK_U64(bad, GS_LORA_ROUTER_GATE);
	{
		char *msg = gs_recipe_bad_target(GS_LORA_ROUTER_GATE, GS_LORA_NAMES_SEPARATE, 1, 1536);
		CHECK(strstr(msg, "DeepseekV3TopkRouter") != NULL);
		free(msg);
	}
	/* "gate" names the router only: PEFT's suffix match never takes it
	 * for gate_proj */
	CHECK(gs_recipe_parse_targets("gate", &has, &name) == 0);
	CHECK_U64(has, GS_LORA_ROUTER_GATE);
}

/*
 * A GGUF base (recipe gguf_width): transformers dequantises the blocks to
 * float32 and holds them in the dtype asked, so the base is P x W, not the
 * GGUF's bytes. Mixtral-8x7B (P 46,702,792,704) in Q8_0 (49,625,579,520 B
 * as read), LoRA, compute format "f32 ...": 4 x P = 186,811,170,816.
 * Llama-2-7B (P 6,738,415,616) full training, AdamW:
 *   bf16 (W 2): weights 2P = 13,476,831,232, gradients 2P, master 4P =
 *   26,953,662,464, AdamW 8P = 53,907,324,928;
 *   float32 (W 4): weights and gradients 4P = 26,953,662,464 each, no
 *   master copy (the weights are fp32 already).
 * QLoRA on a GGUF base: the NF4 rule of any base, the GGUF's bytes unused.
 */
static void test_gguf_base(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	int stated;

	CHECK_U64(gs_recipe_gguf_width("f32 activations, GGUF blocks dequantized", &stated), 4);
	CHECK_INT(stated, 1);
	CHECK_U64(gs_recipe_gguf_width("bf16", &stated), 2);
	CHECK_U64(gs_recipe_gguf_width("BFloat16: torch_dtype", &stated), 2);
	CHECK_INT(stated, 1);
	CHECK_U64(gs_recipe_gguf_width("q8_0 blocks", &stated), 4);
	CHECK_INT(stated, 0);
	CHECK_U64(gs_recipe_gguf_width(NULL, &stated), 4);

	S_model(&w, 46702792704ULL, 32, 32, 8, 4096, 14336, 32000, 4, 4096);
	w.recipe.experts = 8;
	w.recipe.experts_active = 2;
	w.recipe.method = GS_METHOD_LORA;
	w.recipe.lora_rank = 16;
	w.recipe.targets = GS_LORA_ALL;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	w.recipe.gguf_width = 4;
	CHECK(gs_training_size(&w, 49625579520ULL, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 186811170816ULL);
	w.recipe.method = GS_METHOD_QLORA;
	CHECK(gs_training_size(&w, 49625579520ULL, &t, &err) == 0);
	/* Q 46,439,333,888: 23,219,666,944 + 725,614,592 + 11,337,728 +
	 * 263,458,816 x 2 = 24,483,536,896 (whatever W) */
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 24483536896ULL);

	S_llama7b(&w, 1, 2048);
	w.storage_millibits = 8500;   /* a Q8_0 GGUF's bits per value */
	w.recipe.method = GS_METHOD_FULL;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	w.recipe.gguf_width = 2;
	CHECK(gs_training_size(&w, 7159566592ULL, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 13476831232ULL);
	CHECK_U64(t.items[GS_TI_GRADIENTS].total, 13476831232ULL);
	CHECK_U64(t.items[GS_TI_MASTER].total, 26953662464ULL);
	CHECK_U64(t.items[GS_TI_OPTIMIZER].total, 53907324928ULL);
	w.recipe.gguf_width = 4;
	CHECK(gs_training_size(&w, 7159566592ULL, &t, &err) == 0);
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 26953662464ULL);
	CHECK_U64(t.items[GS_TI_GRADIENTS].total, 26953662464ULL);
	CHECK_U64(t.items[GS_TI_MASTER].total, 0);
}

/*
 * Qwen2.5-VL-7B's vision tower (vision_config: depth 32, hidden H 1,280,
 * intermediate I 3,420, spatial merge 2, out 3,584; M = 1,280 x 4 =
 * 5,120), counted as PEFT and bitsandbytes take it. LoRA rank 16:
 *   attn.qkv 16 x (1,280 + 3,840) = 81,920; attn.proj 16 x 2,560 = 40,960;
 *   gate_proj, up_proj, down_proj 16 x 4,700 = 75,200 each;
 *   a block 348,480, x 32 = 11,151,360; merger mlp.0 16 x 10,240 =
 *   163,840, mlp.2 16 x 8,704 = 139,264: 11,454,464 under all-linear.
 * The language model (28 layers, h 3,584, 28 heads and 4 KV heads of 128,
 * intermediate 18,944): 16 x (7,168 + 4,096 + 4,096 + 7,168 + 3 x 22,528)
 * = 1,441,792 a layer, x 28 = 40,370,176: all 51,824,640. Named targets
 * q_proj, v_proj, gate_proj, up_proj, down_proj: the language model's
 * 16 x 78,848 x 28 = 35,323,904 and the tower's MLP 16 x 14,100 x 32 =
 * 7,219,200 (PEFT's suffix match): 42,543,104.
 * Its linear modules (QLoRA's NF4): 32 x (4 x 1,280² + 3 x 1,280 x 3,420)
 * + 5,120² + 5,120 x 3,584 = 629,964,800 + 26,214,400 + 18,350,080 =
 * 674,529,280.
 */
static void test_vision_tower(void)
{
	gs_workload w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v = 0;
	unsigned bad;

	S_model(&w, 8292166656ULL, 28, 28, 4, 3584, 18944, 152064, 1, 2048);
	w.head_dim = 128;
	w.recipe.lora_rank = 16;
	w.recipe.vis_depth = 32;
	w.recipe.vis_hidden = 1280;
	w.recipe.vis_inter = 3420;
	w.recipe.vis_merge = 2;
	w.recipe.vis_out = 3584;
	w.recipe.targets = gs_recipe_resolve(GS_LORA_ALL_LINEAR,
		gs_recipe_modules(GS_LORA_NAMES_SEPARATE, 0, 0) |
		gs_recipe_extra_modules(GS_ARCH_QWEN2_5_VL, 0), &bad);
	CHECK_U64(bad, 0);
	CHECK_U64(w.recipe.targets, GS_LORA_ALL | GS_LORA_VISION);
	CHECK(gs_training_vision_lora(&w.recipe, &v) == 0);
	CHECK_U64(v, 11454464ULL);
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 51824640ULL);
	CHECK(gs_training_vision_linear(&w.recipe, &v) == 0);
	CHECK_U64(v, 674529280ULL);
	w.recipe.targets = GS_LORA_Q | GS_LORA_V | GS_LORA_MLP;
	CHECK(gs_training_lora_params(&w, &v) == 0);
	CHECK_U64(v, 42543104ULL);
	/* QLoRA: the language model's 6,525,288,448 and the tower's linear
	 * parameters in NF4 */
	w.recipe.method = GS_METHOD_QLORA;
	w.recipe.targets = GS_LORA_ALL | GS_LORA_VISION;
	w.recipe.optimizer = GS_OPT_ADAMW;
	w.recipe.checkpointing = GS_CKPT_FULL;
	CHECK(gs_training_size(&w, 16584333312ULL, &t, &err) == 0);
	CHECK_U64(t.quantized, 7199817728ULL);
	CHECK_U64(t.vision_quantized, 674529280ULL);
	CHECK_U64(t.vision_trainable, 11454464ULL);
	CHECK_U64(t.items[GS_TI_WEIGHTS].total, 5898861640ULL);
	/* a model without a tower: none, and its targets refused */
	w.recipe.vis_depth = 0;
	CHECK(gs_training_vision_lora(&w.recipe, &v) == 0);
	CHECK_U64(v, 0);
	gs_recipe_resolve(GS_LORA_VIS_QKV, gs_recipe_modules(GS_LORA_NAMES_SEPARATE, 0, 0), &bad);
	CHECK_U64(bad, GS_LORA_VIS_QKV);
}

int main(void)
{
	test_zero_paper();
	test_lora_7b();
	test_activations();
	test_sharding();
	test_qlora_70b();
	test_moe_lora();
	test_optimizers();
	test_qwen7b_published();
	test_kinds_deepseek();
	test_lora_mla_targets();
	test_from_checkpoint();
	test_kinds_qwen3moe();
	test_qlora_llama8b();
	test_lora_fused();
	test_hybrid_nemotron_h();
	test_hybrid_qwen3_next();
	test_lora_routers();
	test_gguf_base();
	test_vision_tower();
	return gs_check_exit("test_training");
}
