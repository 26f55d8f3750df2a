/*
 * catalog: GPU rental offers, read from XML and validated against the
 * RelaxNG schema catalog/catalog.rng.
 *
 * The XML is parsed without network access and without entity expansion;
 * a document with a DTD is refused. Every claim (memory, price, availability,
 * software, host) carries the source and the date it was read from, and an
 * unknown value is absent, never invented.
 *
 * Money is kept in hundredths of the currency unit (47.14 USD is 4714).
 * Nominal memory is the vendor's decimal figure, kept as bytes (GB x 10^9).
 */
#ifndef GS_CATALOG_H
#define GS_CATALOG_H

#include <stdint.h>
#include "diag.h"

typedef struct {
	char *source;   /* URL or document name */
	char *date;     /* YYYY-MM-DD, or NULL: not known (then ref is set) */
	char *ref;      /* the source's revision (e.g. a commit), or NULL */
} gs_claim;

/* Where a plan is sold, as the source names it: a region, a zone, or both. */
typedef struct {
	char *region;              /* or NULL */
	char *zone;                /* or NULL */
} gs_place;

typedef struct {
	uint64_t hours;            /* duration of the plan (1: priced per hour) */
	int64_t price_hundredths;  /* the price rounded up to the cent (price_micro exact) */
	int64_t price_micro;       /* the price as written, in millionths: up to 6 decimals */
	char *currency;            /* ISO 4217, e.g. "USD" */
	uint64_t billing_hours;    /* the provider's billing unit, 0: not stated */
	int interruptible;         /* 1: the provider may stop the lot (spot) */
	gs_claim claim;
	gs_place *places;          /* where this price holds (<in> children); none: not stated */
	size_t nplaces;
} gs_plan;

typedef enum {
	GS_AVAIL_UNKNOWN = 0,      /* no availability element */
	GS_AVAIL_STOCK = 1,        /* a declared stock: proves no window */
	GS_AVAIL_WINDOW = 2,       /* a documented window from..to */
	GS_AVAIL_ON_REQUEST = 3,
	GS_AVAIL_UNAVAILABLE = 4
} gs_avail_kind;

typedef struct {
	gs_avail_kind kind;
	uint64_t stock;            /* GS_AVAIL_STOCK with has_stock */
	int has_stock;
	char *from, *to;           /* GS_AVAIL_WINDOW: YYYY-MM-DD, inclusive */
	gs_claim claim;
} gs_availability;

typedef struct {
	char *name;                /* e.g. "Ubuntu 22.04, CUDA 12.4, PyTorch 2.5" */
	int installed;             /* 1: documented as installed; 0: on request */
	gs_claim claim;
} gs_software;

/* Where an offer's memory per card comes from (docs/formats.md, 2). */
typedef enum {
	GS_MEMORY_FROM_NONE = 0,     /* no figure (memory_unknown): never a source */
	GS_MEMORY_FROM_CATALOG = 1,  /* a claim of the catalog: the provider's page or file */
	GS_MEMORY_FROM_VENDOR = 2    /* the GPU vendor's datasheet (the vendor table) */
} gs_memory_origin;

typedef struct {
	char *id;                  /* unique in the catalog */
	char *provider;            /* or NULL: not known (reference entries) */
	char *gpu_model;           /* "RTX 4090" */
	char *device_name;         /* as the device reports it, or NULL */
	char *segment;             /* "data-centre" or "workstation", or NULL */
	uint64_t cards;            /* cards per lot */
	int memory_unknown;        /* 1: the catalog gives no memory figure */
	char *nominal_gb_text;     /* as the vendor states it, e.g. "24", or NULL */
	char *mib_text;            /* a provider's MiB figure, e.g. "40960", or NULL */
	uint64_t nominal_bytes;    /* GB x 10^9 or MiB x 2^20, per card, unless memory_unknown */
	gs_claim memory_claim;     /* where the figure comes from (empty when memory_unknown) */
	gs_memory_origin memory_origin;   /* GS_MEMORY_FROM_NONE exactly when memory_unknown */
	char *rejected_mib_text;   /* the provider's figure per card the vendor's replaced, or NULL */
	int reference_flag;        /* reference="true" on the offer */
	char **regions;            /* where it is sold, as the source names them (the
				      regions element, else every region of its plans) */
	size_t nregions;
	gs_claim regions_claim;
	uint64_t declared_bytes;   /* bytes declared by the device, per card */
	int has_declared_bytes;
	gs_claim declared_claim;
	gs_plan *plans;
	size_t nplans;
	gs_availability availability;
	gs_software *software;
	size_t nsoftware;
	uint64_t host_ram_bytes;
	int has_host_ram;
	gs_claim host_ram_claim;
	char *interconnect;        /* or NULL */
	gs_claim interconnect_claim;
	char *notes;               /* or NULL */
} gs_offer;

typedef struct {
	char *path;
	char *title;
	char *label;               /* how pages name this catalog, or NULL: path */
	char *provider;            /* the provider whose snapshot this is (an import), or NULL */
	char *date;                /* the snapshot's date YYYY-MM-DD, or NULL: not known */
	char *ref;                 /* the snapshot's revision (a commit), or NULL */
	gs_offer *offers;          /* in document order */
	size_t noffers;
	char **origins;            /* merged catalogs: label of offers[i], or NULL */
} gs_catalog;

/*
 * Reads and validates path against schema_path (the RelaxNG file). Returns 0
 * on success; on failure adds every error to d (in line order) and returns
 * -1, leaving *c zeroed. *c is overwritten: release a previous catalog first.
 * Errors name path as given. Not thread-safe: libxml2's external entity
 * loader, process-wide, is replaced during the call (only path and
 * schema_path may be opened) and restored afterwards.
 */
/* At most this many offers in one catalog file (docs/formats.md, bounds). */
#define GS_CATALOG_MAX_OFFERS 50000

int gs_catalog_read(const char *path, const char *schema_path,
		    gs_catalog *c, gs_diag *d);
/* The same, over a document held in memory; name is used in messages. */
int gs_catalog_read_memory(const char *name, const char *data, size_t len,
			   const char *schema_path, gs_catalog *c, gs_diag *d);
void gs_catalog_release(gs_catalog *c);
const gs_offer *gs_catalog_find(const gs_catalog *c, const char *id);
/*
 * A reference card, not an offer: marked reference="true", or with no
 * provider, or no priced plan. It is shown apart and never proposed
 * (DESIGN.md, "The order is the recommendation").
 */
int gs_catalog_offer_is_reference(const gs_offer *o);
/* A plan's price in millionths of its currency, exactly (-1: out of range). */
int64_t gs_catalog_plan_micro(const gs_plan *p);

/*
 * Moves every offer of src to the end of dst (src is left empty) and
 * remembers which catalog each came from (gs_catalog_origin). An id of src
 * already in dst is an error naming both files: -1, nothing moved.
 */
int gs_catalog_merge(gs_catalog *dst, gs_catalog *src, gs_diag *d);
/* The label of the catalog an offer was read from (the path when unset). */
const char *gs_catalog_origin(const gs_catalog *c, const gs_offer *o);

/*
 * The memory per card as the catalog writes it: "24 GB", "40960 MiB", or
 * missing_word when no figure is known. Writes into buf; returns buf.
 */
const char *gs_catalog_offer_memory_label(const gs_offer *o, const char *missing_word,
				  char *buf, size_t n);
/*
 * When a claim was read: its date, or "<undated_word>, <ref>" when the
 * date is not known. Writes into buf; returns buf.
 */
const char *gs_catalog_claim_when(const gs_claim *c, const char *undated_word, char *buf, size_t n);
/* "catalog", "vendor" or NULL (no figure): the word the XML and the JSON use. */
const char *gs_catalog_memory_origin_word(gs_memory_origin o);

#endif
