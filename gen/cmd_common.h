/*
 * cmd_common: what the sheet and site commands share: the catalog, the
 * labels, the templates and the date, loaded once per run.
 */
#ifndef GS_CMD_COMMON_H
#define GS_CMD_COMMON_H

#include "catalog.h"
#include "render.h"
#include "labels.h"

typedef struct {
	gs_catalog cat;
	char *catalog_name;   /* as shown in the sheet: "bundled: offers.xml" or the path given */
	gs_strings t;
	gs_templates tp;
	char date[16];        /* YYYY-MM-DD, or "" when neither --date nor SOURCE_DATE_EPOCH */
} gs_run_ctx;

/*
 * Loads the catalog (NULL: the bundled one), labels and templates; resolves
 * the date from date_flag or SOURCE_DATE_EPOCH. Returns 0, or the exit code
 * after printing why (1 invalid input, 2 usage).
 */
int gs_run_ctx_init(gs_run_ctx *rc, const char *cmd, const char *catalog_path,
		    gs_lang lang, const char *date_flag);
void gs_run_ctx_release(gs_run_ctx *rc);

#endif
