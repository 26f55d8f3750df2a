/*
 * buf and html tests: gs_buf's invariants (never NULL, always terminated,
 * an empty buffer costs no allocation, detach and release leave it empty),
 * its number appends against printf, its printf across growth; the one
 * HTML escaper's set, against a byte-by-byte reference on every byte value
 * and on generated strings of every length around the eight-byte steps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "html.h"

static void S_test_empty(void)
{
	gs_buf b = GS_BUF_INIT, c;
	char *s;
	size_t n = 99;

	CHECK(b.data != NULL);
	CHECK_STR(b.data, "");
	CHECK(b.cap == 0);
	gs_buf_put(&b, "", 0);
	CHECK(b.len == 0);
	s = gs_buf_detach(&b, &n);
	CHECK_STR(s, "");
	CHECK(n == 0);
	free(s);
	gs_buf_init(&c, 10);
	CHECK(c.cap >= 11);
	CHECK_STR(c.data, "");
	gs_buf_release(&c);
	CHECK(c.data != NULL && c.len == 0 && c.cap == 0);
	gs_buf_release(&b);
}

static void S_test_append(void)
{
	gs_buf b = GS_BUF_INIT;
	size_t i, n;
	char *s;

	for (i = 0; i < 1000; i++)
		gs_buf_putc(&b, (char)('a' + i % 26));
	CHECK(b.len == 1000);
	CHECK(b.data[1000] == '\0');
	CHECK(b.data[25] == 'z' && b.data[26] == 'a');
	gs_buf_truncate(&b, 3);
	CHECK_STR(b.data, "abc");
	gs_buf_put(&b, "d\0e", 3);   /* a NUL of its own is kept */
	CHECK(b.len == 6 && memcmp(b.data, "abcd\0e", 7) == 0);
	s = gs_buf_detach(&b, &n);
	CHECK(n == 6 && memcmp(s, "abcd\0e", 7) == 0);
	CHECK(b.len == 0 && b.cap == 0 && b.data[0] == '\0');
	free(s);
	gs_buf_puts(&b, "again");
	CHECK_STR(b.data, "again");
	gs_buf_release(&b);
}

static void S_test_numbers(void)
{
	static const uint64_t u[] = { 0, 1, 9, 10, 99, 100, 12345, UINT32_MAX,
				      (uint64_t)UINT32_MAX + 1, UINT64_MAX - 1, UINT64_MAX };
	static const int64_t v[] = { 0, -1, 1, -10, INT64_MIN, INT64_MIN + 1, INT64_MAX };
	gs_buf b = GS_BUF_INIT;
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		gs_buf_truncate(&b, 0);
		gs_buf_u64(&b, u[i]);
		snprintf(want, sizeof(want), "%" PRIu64, u[i]);
		CHECK_STR(b.data, want);
	}
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		gs_buf_truncate(&b, 0);
		gs_buf_i64(&b, v[i]);
		snprintf(want, sizeof(want), "%" PRId64, v[i]);
		CHECK_STR(b.data, want);
	}
	gs_buf_release(&b);
}

static void S_test_printf(void)
{
	gs_buf b = GS_BUF_INIT;
	char big[5000];
	size_t i;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	gs_buf_printf(&b, "%s=%d;", "a", 1);
	CHECK_STR(b.data, "a=1;");
	gs_buf_printf(&b, "[%s]", big);   /* past the capacity: grown, written once */
	CHECK(b.len == 4 + 2 + sizeof(big) - 1);
	CHECK(b.data[b.len] == '\0' && b.data[b.len - 1] == ']' && b.data[5] == 'x');
	for (i = 0; i < 200; i++)
		gs_buf_printf(&b, "%zu,", i);
	CHECK(b.len >= 8 && strcmp(b.data + b.len - 8, "198,199,") == 0);
	gs_buf_release(&b);
}

/* The reference: one byte at a time. */
static void S_escape_ref(gs_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': gs_buf_puts(b, "&amp;"); break;
		case '<': gs_buf_puts(b, "&lt;"); break;
		case '>': gs_buf_puts(b, "&gt;"); break;
		case '"': gs_buf_puts(b, "&quot;"); break;
		default: gs_buf_putc(b, s[i]); break;
		}
	}
}

static void S_test_html(void)
{
	gs_buf got = GS_BUF_INIT, want = GS_BUF_INIT;
	char s[40];
	unsigned c;
	size_t n, at, k;
	uint32_t r = 12345;

	gs_html_escape_str(&got, "a<b>&\"c\" 'd' é");
	CHECK_STR(got.data, "a&lt;b&gt;&amp;&quot;c&quot; 'd' é");
	CHECK(gs_html_needs_escape("plain 'text' é", strlen("plain 'text' é")) == 0);
	CHECK(gs_html_needs_escape("0123456789&", 11) == 1);
	/* every byte value, alone and after seven plain bytes */
	for (c = 1; c < 256; c++) {
		for (k = 0; k < 2; k++) {
			n = k ? 8 : 1;
			memset(s, 'p', n);
			s[n - 1] = (char)c;
			gs_buf_truncate(&got, 0);
			gs_buf_truncate(&want, 0);
			gs_html_escape(&got, s, n);
			S_escape_ref(&want, s, n);
			CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
		}
	}
	/* generated strings, every length up to 39, special bytes anywhere */
	for (n = 0; n < sizeof(s); n++) {
		for (at = 0; at < 50; at++) {
			for (k = 0; k < n; k++) {
				r = r * 1103515245u + 12345u;
				s[k] = "ab&<>\"' \xc3\xa9z\0"[(r >> 16) % 12];
			}
			gs_buf_truncate(&got, 0);
			gs_buf_truncate(&want, 0);
			gs_html_escape(&got, s, n);
			S_escape_ref(&want, s, n);
			CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
		}
	}
	gs_buf_release(&got);
	gs_buf_release(&want);
}

int main(void)
{
	S_test_empty();
	S_test_append();
	S_test_numbers();
	S_test_printf();
	S_test_html();
	return gs_check_exit("test_buf");
}
