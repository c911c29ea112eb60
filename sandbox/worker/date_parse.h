/* Date.parse for the strings that are not ISO 8601 (Duktape parses those
 * itself): the forms V8 reads with its legacy parser and that programs meet
 * in tool results, HTTP headers and their own output. "Tue Mar 05 2024
 * 14:07:09 GMT+0000 (Coordinated Universal Time)", "Tue, 05 Mar 2024
 * 14:07:09 GMT", "March 5, 2024", "5 Mar 2024 10:00 PM", "3/5/2024,
 * 2:07:09 PM", "2024/03/05 10:00 EST". Without a zone a time is local,
 * which in the sandbox is UTC. */
#ifndef SANDBOX_DATE_PARSE_H
#define SANDBOX_DATE_PARSE_H

/* Parses s; on success stores its time value (ms since the epoch, UTC) in
 * *ms and returns 1, else returns 0. */
int sandbox_date_parse(const char *s, double *ms);

/* Duktape's DUK_USE_DATE_PARSE_STRING hook (sandbox/duktape/
 * config_overrides.h): pushes the time value and returns 1, or pushes
 * nothing and returns 0 (Duktape then gives NaN). */
int sandbox__date_parse_string(void *ctx, const char *s);

#endif
