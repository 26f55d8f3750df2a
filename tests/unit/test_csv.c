/* Unit tests of the CSV reader (gen/read/csv.h): RFC 4180 cases worked by hand. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csv.h"

/* Reads every record of s; returns the count, -1 on an error; joins fields
 * as "a|b|c" per record, records separated by "/", into out. */
static int S_read(const char *s, size_t len, char *out, size_t outlen, gs_diag *d)
{
	gs_csv *c = gs_csv_new(s, len, "t.csv");
	gs_csv_record r;
	int n = 0, rc;
	size_t i;

	out[0] = '\0';
	while ((rc = gs_csv_next(c, &r, d)) == 1) {
		if (n)
			strncat(out, "/", outlen - strlen(out) - 1);
		for (i = 0; i < r.nfields; i++) {
			if (i)
				strncat(out, "|", outlen - strlen(out) - 1);
			strncat(out, r.fields[i], outlen - strlen(out) - 1);
		}
		n++;
	}
	gs_csv_free(c);
	return rc < 0 ? -1 : n;
}

static void S_ok(const char *in, int want_n, const char *want, int line)
{
	char out[1024];
	gs_diag d = GS_DIAG_INIT;
	int n = S_read(in, strlen(in), out, sizeof(out), &d);

	gs_check_at(n == want_n, __FILE__, line, "records: got %d, want %d (%s)", n, want_n,
		    d.count ? d.items[0].message : "");
	gs_check_at(strcmp(out, want) == 0, __FILE__, line, "fields: got '%s', want '%s'", out, want);
	gs_diag_release(&d);
}

/* The error's line, column and the start of its message. */
static void S_bad(const char *in, int want_line, int want_col, const char *want_msg, int line)
{
	char out[1024];
	gs_diag d = GS_DIAG_INIT;
	int n = S_read(in, strlen(in), out, sizeof(out), &d);

	gs_check_at(n == -1 && d.count == 1, __FILE__, line, "expected one error, got n=%d, %zu errors", n, d.count);
	if (d.count) {
		gs_check_at(d.items[0].line == want_line && d.items[0].column == want_col, __FILE__, line,
			    "error at %d:%d, want %d:%d (%s)", d.items[0].line, d.items[0].column,
			    want_line, want_col, d.items[0].message);
		gs_check_at(strncmp(d.items[0].message, want_msg, strlen(want_msg)) == 0, __FILE__, line,
			    "message '%s', want '%s...'", d.items[0].message, want_msg);
	}
	gs_diag_release(&d);
}

static void test_accepted(void)
{
	S_ok("a,b,c\n1,2,3\n", 2, "a|b|c/1|2|3", __LINE__);
	/* CRLF, no final line break */
	S_ok("a,b\r\n1,2", 2, "a|b/1|2", __LINE__);
	/* BOM skipped: the first header is "a", not "\xEF\xBB\xBF" "a" */
	S_ok("\xEF\xBB\xBF" "a,b\r\n1,2\r\n", 2, "a|b/1|2", __LINE__);
	/* embedded comma, doubled quote, embedded CRLF and LF kept as they are */
	S_ok("x,y\r\n\"1,5\",\"say \"\"hi\"\"\"\r\n\"l1\r\nl2\",\"m\nn\"\r\n", 3,
	     "x|y/1,5|say \"hi\"/l1\r\nl2|m\nn", __LINE__);
	/* empty fields, quoted empty field */
	S_ok("a,b,c\n,,\n\"\",x,\n", 3, "a|b|c/||/|x|", __LINE__);
	/* blank lines hold no record */
	S_ok("a\n\n1\r\n\r\n2\n", 3, "a/1/2", __LINE__);
	/* a Python-literal dict in quotes, as SkyPilot writes GpuInfo */
	S_ok("g,n\n\"{'Gpus': [{'Name': 'A100'}]}\",1\n", 2, "g|n/{'Gpus': [{'Name': 'A100'}]}|1", __LINE__);
	S_ok("", 0, "", __LINE__);
}

static void test_refused(void)
{
	/* line 2, column 3: the quote in 1"2 */
	S_bad("a,b\nx,1\"2\n", 2, 4, "quote inside an unquoted field", __LINE__);
	/* the opening quote at line 2, column 1 is never closed */
	S_bad("a\n\"open\nstill\n", 2, 1, "quoted field is not closed", __LINE__);
	/* "ab"c: text after the closing quote at column 5 */
	S_bad("a\n\"ab\"c\n", 2, 5, "unexpected character after a closing quote", __LINE__);
	/* record 2 has 3 fields, the header 2 */
	S_bad("a,b\n1,2\n1,2,3\n", 3, 0, "record has 3 fields, the first record has 2", __LINE__);
	/* a lone CR at line 1 column 2 */
	S_bad("a\rb\n", 1, 2, "carriage return not followed by a line feed", __LINE__);
	{
		static const char nul[] = "a,b\n1,\0\n";
		char out[64];
		gs_diag d = GS_DIAG_INIT;
		CHECK_INT(S_read(nul, sizeof(nul) - 1, out, sizeof(out), &d), -1);
		if (CHECK_INT(d.count, 1))
			CHECK_INT(d.items[0].line, 2);
		gs_diag_release(&d);
	}
	{
		/* a field one byte over the limit */
		size_t n = GS_CSV_MAX_FIELD + 1;
		char *big = malloc(n + 2), out[64];
		gs_diag d = GS_DIAG_INIT;
		memset(big, 'x', n);
		big[n] = '\n';
		big[n + 1] = '\0';
		CHECK_INT(S_read(big, n + 1, out, sizeof(out), &d), -1);
		if (CHECK_INT(d.count, 1))
			CHECK(strstr(d.items[0].message, "longer than 65536") != NULL);
		gs_diag_release(&d);
		/* exactly at the limit: accepted */
		CHECK_INT(S_read(big + 1, n, out, sizeof(out), &d), 1);
		gs_diag_release(&d);
		free(big);
	}
	{
		/* 257 fields */
		char row[600], out[64];
		gs_diag d = GS_DIAG_INIT;
		size_t i;
		for (i = 0; i < 256; i++) {
			row[2 * i] = 'x';
			row[2 * i + 1] = ',';
		}
		row[512] = 'x';
		row[513] = '\0';
		CHECK_INT(S_read(row, strlen(row), out, sizeof(out), &d), -1);
		gs_diag_release(&d);
	}
}

/*
 * Every truncation of a file (and every single-byte change to a quote,
 * comma, CR or LF) either reads or fails with one located error; never a
 * crash, an unbounded loop or a record with a field count other than the
 * header's. Runs under ASan: a read past the prefix is caught.
 */
static void test_truncations(void)
{
	static const char file[] =
		"\xEF\xBB\xBF" "InstanceType,Price,GpuInfo\r\n"
		"gpu_1x_a100,1.29,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 40960}}]}\"\r\n"
		"\"odd \"\"name\"\"\",,\"multi\r\nline\"\r\n"
		"cpu,0.2,\r\n";
	size_t len = sizeof(file) - 1, k;
	int ok = 0, failed = 0, bad = 0;

	for (k = 0; k <= len; k++) {
		char *copy = malloc(k ? k : 1), out[1024];
		gs_diag d = GS_DIAG_INIT;
		int n;
		memcpy(copy, file, k);
		n = S_read(copy, k, out, sizeof(out), &d);
		if (n >= 0) {
			ok++;
			bad += d.count != 0;
		} else {
			failed++;
			bad += d.count != 1 || d.items[0].line < 1 || d.items[0].line > 5;
		}
		gs_diag_release(&d);
		free(copy);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(ok + failed, (int)len + 1);
	/* both outcomes happen: truncated inside a quoted field fails,
	 * truncated at a record's end reads */
	CHECK(ok > 0);
	CHECK(failed > 0);
	/* the whole file: 4 records, the third of which spans two lines */
	S_ok(file, 4,
	     "InstanceType|Price|GpuInfo/gpu_1x_a100|1.29|{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 40960}}]}/odd \"name\"||multi\r\nline/cpu|0.2|",
	     __LINE__);
	/* the record after the two-line one starts on line 5 */
	S_bad("a,b\r\n\"x\r\ny\",1\r\n1,2,3\r\n", 4, 0, "record has 3 fields", __LINE__);
}

int main(void)
{
	test_accepted();
	test_refused();
	test_truncations();
	return gs_check_exit("test_csv");
}
