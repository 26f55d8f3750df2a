/*
 * site_results tests: a site's results spooled (site_results.h) come back
 * field by field as they were put, a page or a result at a time, with or
 * without their reasons; the sums (counts per offer and status, the
 * demonstration flag) and each page's hash of keys are those of the
 * results put, and nothing is visible in the folder.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <nettle/sha2.h>

#include "check.h"
#include "site_results.h"
#include "util.h"

#define S_N 250
#define S_OFFERS 3
#define S_ROWS 100

/* Offer ids and currencies (offer 1 has two USD plans: a read back gives the first's). */
static char S_a[] = "a", S_b[] = "b", S_c[] = "c", S_usd[] = "USD", S_usd2[] = "USD", S_eur[] = "EUR";

static void S_catalog(gs_catalog *cat, gs_offer *offers, gs_plan (*plans)[3])
{
	size_t k;

	memset(cat, 0, sizeof(*cat));
	memset(offers, 0, S_OFFERS * sizeof(*offers));
	memset(plans, 0, S_OFFERS * sizeof(*plans));
	offers[0].id = S_a;
	offers[1].id = S_b;
	offers[2].id = S_c;
	plans[0][0].currency = S_usd;
	plans[1][0].currency = S_eur;
	plans[1][1].currency = S_usd2;   /* another pointer, the same bytes */
	plans[1][2].currency = S_usd;
	offers[0].nplans = 1;
	offers[1].nplans = 3;
	offers[2].nplans = 0;
	for (k = 0; k < S_OFFERS; k++)
		offers[k].plans = plans[k];
	cat->offers = offers;
	cat->noffers = S_OFFERS;
}

/* Result i, as the test puts it (into r, allocated) and expects it back. */
static void S_result(const gs_catalog *cat, size_t i, gs_publish_result *r, char *key, gs_site_span *span)
{
	size_t k;

	memset(r, 0, sizeof(*r));
	r->id = gs_xasprintf("w%03zu", (S_N - i) * 7 % 1000);
	r->title = gs_xasprintf("title %zu \"quoted\"\n%s", i, i % 2 ? "é" : "");
	r->noffers = S_OFFERS;
	r->status = gs_xcalloc(S_OFFERS + 1, 1);
	r->cost = gs_xcalloc(S_OFFERS + 1, sizeof(*r->cost));
	r->currency = gs_xcalloc(S_OFFERS + 1, sizeof(*r->currency));
	r->cls = gs_xcalloc(S_OFFERS + 1, 1);
	r->mtok = gs_xcalloc(S_OFFERS + 1, sizeof(*r->mtok));
	r->mtok_currency = gs_xcalloc(S_OFFERS + 1, sizeof(*r->mtok_currency));
	r->mtok_intr = gs_xcalloc(S_OFFERS + 1, 1);
	for (k = 0; k < S_OFFERS; k++) {
		r->status[k] = (unsigned char)((i + k) % 4);
		r->cls[k] = (unsigned char)((i + 2 * k) % (GS_CLASS_COUNT + 1));
		r->cost[k] = i == 3 ? INT64_MIN : i == 4 ? INT64_MAX : (int64_t)(i * 1000 + k) - 5000;
	}
	/* offer 1's currency: its third plan's pointer (USD), read back as its second's */
	r->currency[0] = i % 3 ? cat->offers[0].plans[0].currency : NULL;
	r->currency[1] = i % 2 ? cat->offers[1].plans[2].currency : cat->offers[1].plans[0].currency;
	/* a million tokens: none, on-demand or interruptible, any sign */
	r->mtok_currency[0] = i % 3 == 1 ? cat->offers[0].plans[0].currency : NULL;
	r->mtok[0] = r->mtok_currency[0] ? (int64_t)i * 12345 : 0;
	r->mtok_intr[0] = i % 2;
	r->mtok_currency[1] = cat->offers[1].plans[i % 3].currency;
	r->mtok[1] = i == 5 ? INT64_MIN : i == 6 ? INT64_MAX : (int64_t)i - 40;
	r->mtok_intr[1] = i % 4 == 0;
	r->synthetic = (int)(i % 2);
	r->demonstration = i == 137;
	r->nretained = i % 5;
	r->npreselected = i % 7;
	r->nretained_synthetic = i % 3;
	r->best = i % 4 == 0 ? GS_PUBLISH_NO_BEST : i % S_OFFERS;
	r->best_missing = (unsigned)(i % 32);
	for (k = 0; k < i % 4; k++)
		gs_util_strvec_push(&r->files, gs_xasprintf("%s-%zu.svg", r->id, k));
	if (i % 5 != 1) {
		r->reason = gs_xcalloc(S_OFFERS + 1, sizeof(*r->reason));
		r->reason[0] = gs_xasprintf("need\t%zu\tlong reason", i);
		r->reason[1] = i % 2 ? NULL : gs_xstrdup("");
		r->reason[2] = gs_xstrdup("the same");
	}
	snprintf(key, GS_SHA256_HEX_SIZE, "%064zx", i * 2654435761u);
	span->off = i % 5 == 1 ? i * 100 : 0;
	span->len = i % 5 == 1 ? i + 1 : 0;
}

static void S_same(const gs_publish_result *got, const gs_publish_result *want, const char *wkey,
		   const char *gkey, gs_site_span gs, gs_site_span ws)
{
	size_t k;

	CHECK_STR(got->id, want->id);
	CHECK_STR(got->title, want->title);
	if (!CHECK_INT(got->noffers, want->noffers))
		return;
	for (k = 0; k < want->noffers; k++) {
		CHECK_INT(got->status[k], want->status[k]);
		CHECK_INT(got->cls[k], want->cls[k]);
		CHECK((got->mtok_currency[k] == NULL) == (want->mtok_currency[k] == NULL));
		if (got->mtok_currency[k] && want->mtok_currency[k]) {
			CHECK_STR(got->mtok_currency[k], want->mtok_currency[k]);
			CHECK_INT(got->mtok[k], want->mtok[k]);
			CHECK_INT(got->mtok_intr[k], want->mtok_intr[k]);
		}
		CHECK_INT(got->cost[k], want->cost[k]);
		CHECK((got->currency[k] == NULL) == (want->currency[k] == NULL));
		if (got->currency[k] && want->currency[k])
			CHECK_STR(got->currency[k], want->currency[k]);
	}
	CHECK_INT(got->synthetic, want->synthetic);
	CHECK_INT(got->demonstration, want->demonstration);
	CHECK_INT(got->nretained, want->nretained);
	CHECK_INT(got->npreselected, want->npreselected);
	CHECK_INT(got->nretained_synthetic, want->nretained_synthetic);
	CHECK(got->best == want->best);
	CHECK_INT(got->best_missing, want->best_missing);
	CHECK(got->reason == NULL);
	if (CHECK_INT(got->files.n, want->files.n))
		for (k = 0; k < want->files.n; k++)
			CHECK_STR(got->files.v[k], want->files.v[k]);
	CHECK_STR(gkey, wkey);
	CHECK_U64(gs.off, ws.off);
	CHECK_U64(gs.len, ws.len);
}

static void S_test(const char *dir)
{
	gs_catalog cat;
	gs_offer offers[S_OFFERS];
	gs_plan plans[S_OFFERS][3];
	gs_error err = GS_ERROR_INIT;
	gs_site_results *rs;
	size_t counts[S_OFFERS][3], i, k, g;
	struct sha256_ctx h;
	int demo = 0;

	S_catalog(&cat, offers, plans);
	rs = gs_site_results_new(dir, &cat, S_ROWS, &err);
	if (!CHECK(rs != NULL))
		return;
	CHECK_INT(gs_check_entries(dir), 0);
	memset(counts, 0, sizeof(counts));
	for (i = 0; i < S_N; i++) {
		gs_publish_result r;
		char key[GS_SHA256_HEX_SIZE];
		gs_site_span span;
		S_result(&cat, i, &r, key, &span);
		for (k = 0; k < S_OFFERS; k++)
			if (r.status[k] < 3)
				counts[k][r.status[k]]++;
		demo |= r.demonstration;
		/* result 7 without a key (a build without keys): read back as "" */
		CHECK_INT(gs_site_results_put(rs, &r, i == 7 ? NULL : key, i % 5 == 1 ? &span : NULL,
					      &err), 0);
		CHECK(r.id == NULL && r.status == NULL);   /* taken */
	}
	CHECK_INT(gs_site_results_count(rs), S_N);
	CHECK_INT(gs_site_results_demonstration(rs), demo);
	for (k = 0; k < S_OFFERS; k++)
		for (g = 0; g < 3; g++)
			CHECK_INT(gs_site_results_counts(rs)[k][g], counts[k][g]);
	/* a page at a time, with and without the reasons; then one result, backwards */
	for (g = 0; g * S_ROWS < S_N; g++) {
		size_t from = g * S_ROWS, to = from + S_ROWS < S_N ? from + S_ROWS : S_N;
		char rows[GS_SHA256_HEX_SIZE], want_rows[GS_SHA256_HEX_SIZE];
		uint8_t dig[SHA256_DIGEST_SIZE];
		if (!CHECK_INT(gs_site_results_load(rs, from, to, (int)(g % 2), &err), 0))
			continue;
		/* the same range again: its reasons read, the results as they were */
		CHECK_INT(gs_site_results_load(rs, from, to, 1, &err), 0);
		sha256_init(&h);
		for (i = from; i < to; i++) {
			gs_publish_result want;
			char key[GS_SHA256_HEX_SIZE];
			gs_site_span span;
			S_result(&cat, i, &want, key, &span);
			if (i == 7)
				key[0] = '\0';
			if (i % 5 != 1)
				span.off = span.len = 0;
			sha256_update(&h, strlen(key) + 1, (const uint8_t *)key);
			S_same(gs_site_results_get(rs, i), &want, key, gs_site_results_key(rs, i),
			       gs_site_results_span(rs, i), span);
			CHECK_STR(gs_site_results_id(rs, i), want.id);
			for (k = 0; k < S_OFFERS; k++) {
				const char *w = want.reason ? want.reason[k] : NULL;
				const char *got = gs_site_results_reason(rs, i, k);
				if (CHECK((got == NULL) == (w == NULL)) && w)
					CHECK_STR(got, w);
			}
			gs_publish_result_release(&want);
		}
		sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
		gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, want_rows);
		gs_site_results_rows(rs, g, rows);
		CHECK_STR(rows, want_rows);
	}
	for (i = S_N; i-- > 0;) {
		gs_publish_result want;
		char key[GS_SHA256_HEX_SIZE];
		gs_site_span span;
		if (!CHECK_INT(gs_site_results_load(rs, i, i + 1, i % 2 == 0, &err), 0))
			break;
		S_result(&cat, i, &want, key, &span);
		if (i == 7)
			key[0] = '\0';
		if (i % 5 != 1)
			span.off = span.len = 0;
		S_same(gs_site_results_get(rs, i), &want, key, gs_site_results_key(rs, i),
		       gs_site_results_span(rs, i), span);
		gs_publish_result_release(&want);
	}
	/* an empty range */
	CHECK_INT(gs_site_results_load(rs, S_N, S_N, 1, &err), 0);
	CHECK_INT(gs_check_entries(dir), 0);
	gs_site_results_free(rs);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-site-results-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!CHECK(tmp != NULL))
		return gs_check_exit("test_site_results");
	S_test(tmp);
	rmdir(tmp);
	return gs_check_exit("test_site_results");
}
