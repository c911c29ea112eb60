/* What `mcp-codemode run` prints for the execute_code result: the value,
 * the content blocks, the dry run's plan; with an output directory
 * (`run --out DIR`) it writes images, audio, embedded resources and stashed
 * results (the whole of a truncated result, content.stash values) to files
 * there and prints their paths. The stash lives in the run's own process,
 * so nothing printed points at a codemode://stash/ resource. */
#ifndef MCP_SERVER_RUN_OUTPUT_H
#define MCP_SERVER_RUN_OUTPUT_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct run_output;

/* json: print structuredContent as JSON (run --json); out_dir: NULL, or the
 * directory the files go to (borrowed; see run_output_make_dir). */
struct run_output *run_output_new(int json, const char *out_dir);
void run_output_free(struct run_output *o);

/* Creates dir (and its parents) when it does not exist: 0, or -1 with a
 * sentence in err. */
int run_output_make_dir(const char *dir, char *err, size_t errsz);

/* Keeps a copy of the tools/call result. Returns how many stashed resources
 * it links that must be read before printing (none without out_dir): their
 * URIs are run_output_stash_uri(o, 0 .. n-1). */
size_t run_output_take(struct run_output *o, const cJSON *result);
const char *run_output_stash_uri(const struct run_output *o, size_t i);

/* The answer to resources/read of stash URI i: the JSON-RPC result
 * (borrowed; its contents[0] is kept), or NULL when it failed. */
void run_output_stash_read(struct run_output *o, size_t i, const cJSON *result);

/* Prints the result (stdout; an error's text on stderr) and writes the
 * files. Returns the exit status: 0, or 1 when the program failed or a file
 * could not be written. */
int run_output_print(struct run_output *o);

/* The file extension for a MIME type ("png" for image/png, "bin" when
 * unknown); never NULL, at most 8 characters of [a-z0-9]. */
const char *run_output_extension(const char *mime, char buf[16]);

#endif
