/*
 * test_keysread: the "why" array of a keys file's sheet entry as a build
 * writes it (gs_keysread_why_count, gs_keysread_why_at): each text once, later
 * offers pointing at the first with its index; anything else refused.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "keysread.h"

static long S_count(const char *s)
{
	return gs_keysread_why_count(s, strlen(s));
}

int main(void)
{
	char entry[] = "{\"files\":[],\"key\":\"k\",\"why\":[\"a\",null,0]}";
	size_t why_len = 0;
	long at;
	char *big;
	size_t i, len;

	CHECK(S_count("[]") == 0);
	CHECK(S_count("[\"a\",null,0,\"b\",0,3]") == 6);
	CHECK(S_count("[\"a\\tb\",\"\\u00e9\",\"\\ud83d\\ude00\"]") == 3);
	/* a text written twice, next to each other or apart, of equal lengths */
	CHECK(S_count("[\"a\",\"a\"]") == -1);
	CHECK(S_count("[\"ab\",\"cd\",null,\"ef\",\"cd\"]") == -1);
	CHECK(S_count("[\"ab\",\"cd\",\"ef\"]") == 3);
	/* an index not of an earlier string, a number with a leading zero */
	CHECK(S_count("[null,1]") == -1);
	CHECK(S_count("[\"a\",null,1]") == -1);
	CHECK(S_count("[\"a\",00]") == -1);
	CHECK(S_count("[\"a\",2]") == -1);
	/* what jansson would not load */
	CHECK(S_count("[\"\\u0000\"]") == -1);
	CHECK(S_count("[\"\\ud83d\"]") == -1);
	CHECK(S_count("[\"\\x\"]") == -1);
	CHECK(S_count("[\"a\" ,null]") == -1);
	CHECK(S_count("[\"a\"") == -1);

	/* 3,000 distinct texts and one more equal to the 1,234th */
	big = malloc(3001 * 16 + 3);
	if (CHECK(big != NULL)) {
		len = 0;
		big[len++] = '[';
		for (i = 0; i < 3000; i++)
			len += (size_t)sprintf(big + len, "%s\"t%05zu\"", i ? "," : "", i);
		big[len] = ']';
		CHECK(gs_keysread_why_count(big, len + 1) == 3000);
		len += (size_t)sprintf(big + len, ",\"t%05d\"]", 1233);
		CHECK(gs_keysread_why_count(big, len) == -1);
		free(big);
	}

	/* where "why" starts in an entry, and the entry's length without it */
	at = gs_keysread_why_at(entry, strlen(entry), 3, &why_len);
	if (CHECK(at > 0)) {
		CHECK(strncmp(entry + at, "[\"a\",null,0]", why_len) == 0 && why_len == 12);
		CHECK(entry[at - (long)(sizeof(GS_KEYS_WHY_MEMBER) - 1)] == ',');
	}
	CHECK(gs_keysread_why_at(entry, strlen(entry), 2, &why_len) == -1);
	return gs_check_exit("test_keysread");
}
