/*
 * jsonout: every unsigned 64-bit number comes out exact (finding 8: values
 * at or above 2^63 came out as -1 or -2), and no input string can pass for
 * the internal marker.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jsonout.h"

static void test_u64(void)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "max", gs_jo_u64(UINT64_MAX));
	json_object_set_new(o, "two63", gs_jo_u64(UINT64_C(9223372036854775808)));
	json_object_set_new(o, "small", gs_jo_u64(42));
	json_object_set_new(o, "neg", gs_jo_i64(-5));
	/* what a hostile title could hold: the marker's public part */
	json_object_set_new(o, "title", json_string("\001u64:123"));
	s = gs_jo_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	CHECK_STR(s, "{\"max\":18446744073709551615,\"neg\":-5,\"small\":42,"
		     "\"title\":\"\\u0001u64:123\",\"two63\":9223372036854775808}\n");
	free(s);
	json_decref(o);
}

int main(void)
{
	test_u64();
	return gs_check_exit("test_jsonout");
}
