/*
 * verify: check that a published site folder DIR is whole, offline and
 * matches its evidence manifest (`gpusheet verify DIR`).
 *
 * Invariants:
 *  - read-only: nothing under DIR is written, moved or removed;
 *  - every problem is one line "<path relative to DIR>: <problem>" on the
 *    report stream; lines are sorted by path (then in the order found in
 *    that file), so two runs over the same tree print the same bytes;
 *    control characters and invalid UTF-8 in paths and quoted links are
 *    escaped as \xNN and a quoted link is cut at 200 bytes, followed by
 *    its length "...(N bytes)" (the convention of diag.h);
 *  - evidence: evidence/manifest.json (see evidence.h) must exist when
 *    evidence/ exists; every entry's file must exist with the recorded size
 *    and SHA-256 ("missing file", "size mismatch (expected N, found M)",
 *    "hash mismatch (expected A, found B)"), and every other file in
 *    evidence/ must be listed ("not in manifest");
 *  - manifest and pages agree: each entry's "names" and "cited_by" are
 *    arrays of strings, sorted and unique; every cited_by names a page
 *    that exists ("cited_by of F names a missing page: P") and links to F
 *    ("... names P, which does not link to it"); every page linking to an
 *    archived file is cited by its entry ("links to F, whose manifest
 *    entry does not cite this page");
 *  - pages: every *.html / *.htm file under DIR, except under evidence/
 *    (archived raw content: a link target only), is parsed (libxml2 HTML
 *    parser, no network). href, src, srcset, poster, action, formaction,
 *    background, object data, meta refresh URLs and CSS url()/@import in
 *    style attributes and <style> elements are checked:
 *      "#x"                    an element with id (or <a name>) x must exist
 *                              in the page ("missing anchor: #x");
 *      mailto:, tel:, data:    accepted;
 *      http:, https:, //, any other scheme    "external request: URL";
 *      javascript:             "script link: URL";
 *      /absolute               "absolute path: URL";
 *      relative                ?query and #fragment stripped, %XX decoded,
 *                              resolved against the page's folder; escaping
 *                              DIR: "link escapes the site: URL"; no such
 *                              file (or a folder without index.html):
 *                              "broken link: URL"; a #fragment into another
 *                              page of the site must name an id there
 *                              ("missing anchor: URL");
 *  - a file with a temporary name (gs_outfile_is_temp_name in outfile.h) is
 *    reported ("temporary file left behind"): a write that never finished;
 *  - a shard folder (GS_SHARD_FILE at its root, shard.h) is not a site:
 *    reported ("a shard of a site ...") and nothing else is checked (its
 *    sheets link to pages that only the merged site has);
 *  - symbolic links under DIR are reported ("symbolic link") and never
 *    followed into folders;
 *  - cost: one directory walk, one parse per page, one hash per evidence
 *    file; look-ups go through sorted arrays and binary search, so the run
 *    is O(N log N) in files + links + ids.
 */
#ifndef GS_VERIFY_H
#define GS_VERIFY_H

#include <stdio.h>

/*
 * Verify the site folder dir, printing one line per problem on report
 * (may be NULL: count only). Returns the number of problems (0: all good),
 * or -1 when dir cannot be read as a folder (a message then goes to
 * report).
 */
int gs_verify_site(const char *dir, FILE *report);

#endif
