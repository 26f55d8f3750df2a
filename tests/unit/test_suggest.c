/*
 * suggest tests: gs_suggest's rules in their order (a name of the field, the
 * same name but for case or '-' / '_', a prefix, an abbreviation, a few
 * letters changed), a tie won by the first candidate, nothing suggested
 * when nothing is close or the name is too long; and hfcache's repo ids and
 * commits (gs_hfcache_is_repo_id, gs_hfcache_is_commit, gs_hfcache_split_ref).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hfcache.h"
#include "suggest.h"

static void S_test_suggest(void)
{
	static const char *const opts[] = { "model", "context", "output-tokens", "sequences",
					    "task", "id", "out", "help", NULL };
	static const char *const dims[] = { "input_tokens", "output_tokens", "batch",
					    "microbatch", "sequences", "extra", NULL };
	const char *note;
	char long_name[GS_SUGGEST_MAX + 2];

	CHECK_STR(gs_suggest("ctx", opts, NULL), "context");          /* abbreviation */
	CHECK_STR(gs_suggest("contxt", opts, NULL), "context");       /* one letter out */
	CHECK_STR(gs_suggest("output_tokens", opts, NULL), "output-tokens"); /* '_' for '-' */
	CHECK_STR(gs_suggest("Model", opts, NULL), "model");          /* case */
	CHECK_STR(gs_suggest("seq", opts, NULL), "sequences");        /* prefix */
	CHECK(gs_suggest("verbose", opts, NULL) == NULL);
	CHECK(gs_suggest("", opts, NULL) == NULL);
	/* names of the field: only towards a candidate of the list */
	CHECK_STR(gs_suggest("context", dims, &note), "input_tokens");
	CHECK(note && strstr(note, "input_tokens + output_tokens"));
	CHECK_STR(gs_suggest("max_new_tokens", dims, &note), "output_tokens");
	CHECK(note == NULL);
	CHECK_STR(gs_suggest("batch_size", dims, NULL), "batch");
	CHECK(gs_suggest("context", opts, &note) != NULL && note == NULL); /* "context" itself */
	/* a tie: the first candidate */
	{
		static const char *const two[] = { "abcx", "abcy", NULL };
		CHECK_STR(gs_suggest("abcz", two, NULL), "abcx");
	}
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	CHECK(gs_suggest(long_name, opts, NULL) == NULL);
}

static void S_test_hf_names(void)
{
	char *repo, *rev;

	CHECK(gs_hfcache_is_repo_id("mistralai/Mistral-7B-v0.1"));
	CHECK(gs_hfcache_is_repo_id("a/b"));
	CHECK(!gs_hfcache_is_repo_id("gpt2"));                  /* ORG/NAME only */
	CHECK(!gs_hfcache_is_repo_id("a/b/c"));
	CHECK(!gs_hfcache_is_repo_id("../x"));
	CHECK(!gs_hfcache_is_repo_id("a/.."));
	CHECK(!gs_hfcache_is_repo_id("a/b..c"));
	CHECK(!gs_hfcache_is_repo_id("a--b/c"));                /* would read as another folder */
	CHECK(!gs_hfcache_is_repo_id("-a/b"));
	CHECK(!gs_hfcache_is_repo_id("a/b c"));
	CHECK(!gs_hfcache_is_repo_id("/a/b"));
	CHECK(gs_hfcache_is_commit("26bca36bde8333b5d7f72e9ed20ccda6a618af24"));
	CHECK(!gs_hfcache_is_commit("26BCA36bde8333b5d7f72e9ed20ccda6a618af24"));
	CHECK(!gs_hfcache_is_commit("26bca36bde8333b5d7f72e9ed20ccda6a618af2"));
	CHECK(!gs_hfcache_is_commit("26bca36bde8333b5d7f72e9ed20ccda6a618af245"));
	if (CHECK(gs_hfcache_split_ref("org/name@v1.0", &repo, &rev) == 0)) {
		CHECK_STR(repo, "org/name");
		CHECK_STR(rev, "v1.0");
		free(repo);
		free(rev);
	}
	if (CHECK(gs_hfcache_split_ref("org/name", &repo, &rev) == 0)) {
		CHECK(rev == NULL);
		free(repo);
	}
	CHECK(gs_hfcache_split_ref("org/name@", &repo, &rev) == -1);
	CHECK(gs_hfcache_split_ref("tests/data/models/x", &repo, &rev) == -1);
}

int main(void)
{
	S_test_suggest();
	S_test_hf_names();
	return gs_check_exit("test_suggest");
}
