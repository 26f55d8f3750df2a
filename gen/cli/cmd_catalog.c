/*
 * cmd_catalog: `gpusheet catalog import --from skypilot FILE.csv --provider
 * NAME [--source-date YYYY-MM-DD] [--source-ref TEXT] --out catalog.xml`.
 *
 * Reads the whole file (bounded), imports it, validates the XML against the
 * catalog schema and the reader's checks, and only then writes it
 * atomically. Any error: the message with its line, exit 1, nothing
 * written and an existing --out left as it was.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "cmd_common.h"
#include "commands.h"
#include "datadir.h"
#include "import.h"
#include "infile.h"
#include "outfile.h"
#include "suggest.h"
#include "util.h"

static const char S_usage[] =
	"usage: gpusheet catalog import --from skypilot FILE.csv --provider NAME\n"
	"       [--source-date YYYY-MM-DD] [--source-ref TEXT] [--strict] --out catalog.xml|FOLDER\n"
	"  --out FOLDER replaces the folder's catalog of the same provider (else writes FOLDER/<provider>.xml)\n"
	"  a line that cannot be read is skipped with a warning naming it; --strict refuses the file instead\n";

/* The last component of a path, as claims cite the file. */
/* YYYY-MM-DD, a day that exists. */
static int S_date_ok(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, dd, i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	y = atoi(s);
	m = atoi(s + 5);
	dd = atoi(s + 8);
	if (y < 1 || m < 1 || m > 12 || dd < 1 || dd > mdays[m - 1])
		return 0;
	return !(m == 2 && dd == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
}

/* Reads path whole when it is at most GS_IMPORT_MAX_BYTES; NULL after a message. */
static char *S_slurp(const char *path, size_t *len)
{
	struct stat st;
	char *data;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: error: cannot open '%s': %s\n", path, path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: error: not a regular file\n", path);
		return NULL;
	}
	if ((unsigned long long)st.st_size > GS_IMPORT_MAX_BYTES) {
		fprintf(stderr, "%s: error: the file is %lld bytes; the limit is %u bytes (16 MiB)\n",
			path, (long long)st.st_size, GS_IMPORT_MAX_BYTES);
		return NULL;
	}
	{
		gs_error why = GS_ERROR_INIT;
		const char *m;

		data = gs_infile_read(path, GS_IMPORT_MAX_BYTES, len, &why);
		m = gs_error_message(&why);
		if (!data)
			fprintf(stderr, "%s: error: cannot read '%s': %s\n", path, path,
				strncmp(m, "cannot read: ", 13) == 0 ? m + 13 : m);
		gs_error_release(&why);
	}
	return data;
}

/* "Prime Intellect" -> "prime-intellect": a file name for a provider's catalog. */
static char *S_slug(const char *provider)
{
	char *s = gs_xstrdup(provider), *p, *q;

	for (p = q = s; *p; p++) {
		char ch = *p;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			*q++ = ch;
		else if (q > s && q[-1] != '-')
			*q++ = '-';
	}
	while (q > s && q[-1] == '-')
		q--;
	*q = '\0';
	if (!*s) {
		free(s);
		s = gs_xstrdup("provider");
	}
	return s;
}

/*
 * --out FOLDER: the catalog of that folder whose provider is this one is
 * replaced (its name kept); none: FOLDER/<provider>.xml. Two catalogs of the
 * provider in the folder: refused, naming both. Returns the path (malloc'd)
 * or NULL after a message.
 */
static char *S_out_in_folder(const char *dir, const char *provider, const char *rng)
{
	gs_strvec files = GS_STRVEC_INIT, labels = GS_STRVEC_INIT;
	const char *one[1] = { dir };
	gs_error e = GS_ERROR_INIT;
	char *found = NULL, *slug, *when = NULL;
	size_t i;

	if (gs_cmd_common_catalog_files(one, 1, &files, &labels, &e) == 0) {
		for (i = 0; i < files.n; i++) {
			gs_catalog c;
			gs_diag d = GS_DIAG_INIT;
			int same;
			if (gs_catalog_read(files.v[i], rng, &c, &d) != 0) {
				gs_diag_release(&d);
				continue;   /* not a catalog of ours: never replaced */
			}
			same = c.provider && strcmp(c.provider, provider) == 0;
			if (same && found) {
				fprintf(stderr, "gpusheet catalog import: %s and %s are both catalogs of %s: "
					"remove one, then import again\n", found, files.v[i], provider);
				gs_catalog_release(&c);
				free(found);
				found = NULL;
				goto refused;
			}
			if (same) {
				found = gs_xstrdup(files.v[i]);
				when = gs_xstrdup(c.date ? c.date : (c.ref ? c.ref : "no date"));
			}
			gs_catalog_release(&c);
		}
	}
	gs_error_release(&e);
	gs_util_strvec_release(&files);
	gs_util_strvec_release(&labels);
	if (found) {
		fprintf(stderr, "gpusheet catalog import: replacing %s (%s's snapshot of %s), once this import succeeds\n",
			found, provider, when);
		free(when);
		return found;
	}
	slug = S_slug(provider);
	found = gs_xasprintf("%s/%s.xml", dir, slug);
	free(slug);
	return found;
refused:
	free(when);
	gs_error_release(&e);
	gs_util_strvec_release(&files);
	gs_util_strvec_release(&labels);
	return NULL;
}

static int S_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "provider", required_argument, NULL, 'p' },
		{ "source-date", required_argument, NULL, 'd' },
		{ "source-ref", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *from = NULL, *out = NULL;
	gs_import_opts io;
	gs_diag d = GS_DIAG_INIT;
	gs_catalog check;
	char rng[4096], *data, *xml = NULL, *report = NULL, *notes = NULL, *dir, *slash, *out_path = NULL;
	gs_error werr = GS_ERROR_INIT;
	size_t len, xml_len = 0;
	int c, rc = GS_EXIT_INVALID;

	memset(&io, 0, sizeof(io));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': from = optarg; break;
		case 'p': io.provider = optarg; break;
		case 'd': io.source_date = optarg; break;
		case 'r': io.source_ref = optarg; break;
		case 'o': out = optarg; break;
		case 's': io.strict = 1; break;
		case 'h': fputs(S_usage, stdout); return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("catalog import", opts, argv, optind);
			fputs(S_usage, stderr);
			return GS_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !from || !io.provider || !*io.provider || !out || !*out) {
		fprintf(stderr, "gpusheet catalog import: one FILE.csv, --from, --provider and --out are required\n%s",
			S_usage);
		return GS_EXIT_USAGE;
	}
	if (strcmp(from, "skypilot") != 0) {
		fprintf(stderr, "gpusheet catalog import: --from takes 'skypilot' (got '%s')\n", from);
		return GS_EXIT_USAGE;
	}
	if (io.source_date && !S_date_ok(io.source_date)) {
		fprintf(stderr, "gpusheet catalog import: --source-date takes a date YYYY-MM-DD (got '%s')\n",
			io.source_date);
		return GS_EXIT_USAGE;
	}
	if (!io.source_date && !io.source_ref) {
		fputs("gpusheet catalog import: give --source-date, --source-ref or both: a claim "
		      "without a date must carry the source's reference\n", stderr);
		return GS_EXIT_USAGE;
	}
	if ((io.source_ref && !*io.source_ref)) {
		fputs("gpusheet catalog import: --source-ref must not be empty\n", stderr);
		return GS_EXIT_USAGE;
	}
	if (!gs_datadir_path(rng, sizeof(rng), "catalog/catalog.rng", NULL)) {
		fputs("gpusheet catalog import: data folder not found (set GPUSHEET_DATADIR)\n", stderr);
		return GS_EXIT_INVALID;
	}
	{
		struct stat st;
		if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
			out_path = S_out_in_folder(out, io.provider, rng);
			if (!out_path)
				return GS_EXIT_INVALID;
			out = out_path;
		}
	}
	io.file = gs_util_basename(argv[optind]);
	io.path = argv[optind];
	data = S_slurp(argv[optind], &len);
	if (!data) {
		free(out_path);
		return GS_EXIT_INVALID;
	}
	if (gs_import_skypilot(data, len, &io, &xml, &xml_len, &report, &notes, &d) != 0) {
		/* messages name the file as given on the command line */
		size_t i;
		for (i = 0; i < d.count; i++) {
			free(d.items[i].file);
			d.items[i].file = gs_xstrdup(argv[optind]);
		}
		if (notes)
			fputs(notes, stderr);
		gs_diag_print(&d, stderr);
		goto done;
	}
	/* What we write must read back: the schema and every check of meaning. */
	if (gs_catalog_read_memory(out, xml, xml_len, rng, &check, &d) != 0) {
		fputs("gpusheet catalog import: the catalog made from this file does not validate:\n", stderr);
		gs_diag_print(&d, stderr);
		goto done;
	}
	gs_catalog_release(&check);
	dir = gs_xstrdup(out);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (gs_outfile_write_atomic(slash ? (*dir ? dir : "/") : ".", slash ? slash + 1 : out, xml, xml_len,
			    &werr) != 0) {
		fprintf(stderr, "gpusheet catalog import: %s\n", gs_error_message(&werr));
		gs_error_release(&werr);
		free(dir);
		goto done;
	}
	free(dir);
	fputs(report, stdout);
	if (notes)
		fputs(notes, stderr);
	rc = GS_EXIT_OK;
done:
	gs_diag_release(&d);
	free(data);
	free(xml);
	free(report);
	free(notes);
	free(out_path);
	return rc;
}

int gs_cmd_catalog(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return S_import(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(S_usage, stdout);
		return GS_EXIT_OK;
	}
	fprintf(stderr, "gpusheet catalog: expected the subcommand 'import'\n%s", S_usage);
	return GS_EXIT_USAGE;
}
