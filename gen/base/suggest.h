/*
 * suggest: the closest known name to a wrong one, for messages that say
 * what to type instead ("unknown option '--ctx' (did you mean --context?)").
 *
 * Invariants: deterministic (the first candidate wins a tie, in the order
 * given); only a candidate of the list is ever suggested; names longer than
 * GS_SUGGEST_MAX bytes are never close to anything.
 */
#ifndef GS_SUGGEST_H
#define GS_SUGGEST_H

#include <stddef.h>

#define GS_SUGGEST_MAX 64

/*
 * The candidate (NULL-terminated list) closest to word, or NULL when none
 * is close: a name the field uses for the same thing (context, batch_size,
 * max_new_tokens, ...), the same name but for case or '-' / '_', a prefix,
 * an abbreviation (its letters in order, same first letter), or at most a
 * third of its letters (at least one) changed. *note (when not NULL) gets a
 * short explanation for a name of the field, else NULL.
 */
const char *gs_suggest(const char *word, const char *const *candidates, const char **note);

/*
 * After getopt_long returned '?' (opterr 0): prints "gpusheet CMD: unknown
 * option '--ctx' (did you mean --context?)" or "gpusheet CMD: option
 * '--context' needs a value", naming the argument at fault (argv[optind -
 * 1]), then " (see gpusheet --help)". opts ends with a NULL name.
 */
struct option;
void gs_suggest_bad_option(const char *cmd, const struct option *opts, char *const *argv,
		       int optind);

#endif
