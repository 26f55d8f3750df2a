/*
 * error tests: gs_error never cuts a message, set replaces, prefix adds
 * context, a message may quote the error's own old text, NULL is allowed,
 * release and move leave it empty.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "error.h"

int main(void)
{
	gs_error e = GS_ERROR_INIT, f = GS_ERROR_INIT;
	char big[10000];

	CHECK(!gs_error_is_set(&e));
	CHECK_STR(gs_error_message(&e), "");
	CHECK(gs_error_set(NULL, "ignored %d", 1) == -1);
	CHECK(gs_error_set(&e, "first %d", 1) == -1);
	CHECK_STR(gs_error_message(&e), "first 1");
	CHECK(gs_error_set(&e, "wrapped (%s)", e.message) == -1);   /* its own old text */
	CHECK_STR(gs_error_message(&e), "wrapped (first 1)");
	CHECK(gs_error_prefix(&e, "%s: ", "a.json") == -1);
	CHECK_STR(gs_error_message(&e), "a.json: wrapped (first 1)");
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	gs_error_set_at(&e, "w.json", 3, 7, "$.model", "%s", big);   /* never cut */
	CHECK(strlen(gs_error_message(&e)) == sizeof(big) - 1);
	CHECK_STR(e.file, "w.json");
	CHECK_STR(e.path, "$.model");
	CHECK(e.line == 3 && e.column == 7);
	gs_error_set_at(&e, e.file, 0, 0, NULL, "again");   /* its own file */
	CHECK_STR(e.file, "w.json");
	CHECK(e.path == NULL && e.line == 0);
	gs_error_move(&f, &e);
	CHECK(!gs_error_is_set(&e) && e.file == NULL);
	CHECK_STR(gs_error_message(&f), "again");
	gs_error_release(&f);
	CHECK(!gs_error_is_set(&f));
	gs_error_release(&f);
	gs_error_release(NULL);
	return gs_check_exit("test_error");
}
