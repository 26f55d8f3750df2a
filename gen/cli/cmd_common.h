/*
 * cmd_common: what the sheet and site commands share: the catalog, the
 * labels, the templates and the date, loaded once per run.
 */
#ifndef GS_CMD_COMMON_H
#define GS_CMD_COMMON_H

#include "error.h"
#include "util.h"

#include "catalog.h"
#include "evidence.h"
#include "render.h"
#include "labels.h"

typedef struct {
	gs_catalog cat;
	char *catalog_name;   /* as shown in the sheet: "offers.xml (bundled)" or the paths given, comma-separated */
	gs_strings t;
	gs_templates tp;
	char date[16];        /* YYYY-MM-DD, or "" when neither --date nor SOURCE_DATE_EPOCH */
} gs_run_ctx;

/*
 * The catalog files a run reads, with the labels pages name them by: each
 * entry of catalogs a file, a folder (every *.xml in it, sorted by name) or
 * the name of a bundled catalog ("offers.xml" or "offers", when no such path
 * exists); none: every bundled catalog (every .xml file of the data folder's catalog folder).
 * Appends to files and labels; 0, or -1 with why in err.
 */
int gs_cmd_common_catalog_files(const char *const *catalogs, size_t n, gs_strvec *files,
				gs_strvec *labels, gs_error *err);

/*
 * Loads the catalogs (gs_cmd_common_catalog_files, merged into one in that
 * order; two snapshots of one provider: the newer when both are dated,
 * else refused naming both), labels and templates; resolves the date from
 * date_flag or SOURCE_DATE_EPOCH. An offer id found in two catalogs is an
 * error naming both. Returns 0, or the exit code after printing why
 * (1 invalid input, 2 usage).
 */
int gs_cmd_common_run_ctx_init(gs_run_ctx *rc, const char *cmd, const char *const *catalogs,
		    size_t ncatalogs, gs_lang lang, const char *date_flag);

/* The most --catalog options one run takes. */
#define GS_MAX_CATALOGS 16
void gs_cmd_common_run_ctx_release(gs_run_ctx *rc);

/*
 * The SHA-256 of the catalogs' bytes (each file's hex SHA-256 and a
 * newline, in the order given; none: the bundled one), for the sheets' keys
 * (site.h) and the shards' identity (shard.h); not of their paths, which
 * the site does not depend on. 0, or -1 after an error message for cmd.
 */
int gs_cmd_common_catalog_key(const char *cmd, const char *const *catalogs, size_t n,
		   char hex[GS_SHA256_HEX_SIZE]);
/* The same, the error message (what gs_cmd_common_catalog_key prints) in err instead. */
int gs_cmd_common_catalog_key_err(const char *const *catalogs, size_t n, char hex[GS_SHA256_HEX_SIZE],
		       gs_error *err);

#endif
