/* JSON-RPC 2.0 messages: parsing and classification with the id kept as
 * its exact text, batch splitting, id recovery from a truncated message, and
 * writers for responses, errors and notifications (one compact line each). */
#ifndef TRANSPORT_JSONRPC_H
#define TRANSPORT_JSONRPC_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;

#define RPC_PARSE_ERROR -32700
#define RPC_INVALID_REQUEST -32600
#define RPC_METHOD_NOT_FOUND -32601
#define RPC_INVALID_PARAMS -32602
#define RPC_INTERNAL_ERROR -32603

enum rpc_kind { RPC_REQUEST, RPC_NOTIFICATION, RPC_RESPONSE, RPC_INVALID };

struct rpc_message {
    enum rpc_kind kind;
    cJSON *json;          /* owned; NULL when the text is not JSON */
    char *id;             /* exact JSON text of a valid id (string or number); NULL otherwise */
    const char *method;   /* borrowed from json */
    const cJSON *params;  /* borrowed; NULL when absent */
    const cJSON *result;  /* responses */
    const cJSON *error;   /* responses */
    int invalid_code;     /* RPC_INVALID: RPC_PARSE_ERROR or RPC_INVALID_REQUEST */
    char invalid_reason[160];
};

/* Parses one message (text need not be NUL-terminated). Always fills m;
 * release it with rpc_message_free. */
void rpc_parse(const char *text, size_t len, struct rpc_message *m);

/* rpc_parse of a text already parsed into `tree` (NULL: not JSON), which m then owns. */
void rpc_parse_tree(const char *text, size_t len, cJSON *tree, struct rpc_message *m);
void rpc_message_free(struct rpc_message *m);

/* 1 when the text (after whitespace) starts a JSON array: a batch. */
int rpc_is_batch(const char *text, size_t len);

/* Splits a batch into the raw spans of its elements. Returns the number of
 * elements (0 for "[]") and a malloc'd array of {start, len} pairs in *spans,
 * or -1 when the text is not a well-formed array. */
struct rpc_span {
    const char *start;
    size_t len;
};
int rpc_split_batch(const char *text, size_t len, struct rpc_span **spans);

/* The exact text of a valid top-level "id" in a possibly truncated message
 * head, malloc'd, or NULL. */
char *rpc_recover_id(const char *text, size_t len);

/* A canonical key for matching ids across messages (e.g. the requestId of a
 * cancellation against in-flight ids): the id text without surrounding
 * whitespace; caller frees. NULL for an item that is not a valid id. */
char *rpc_id_key_of(const cJSON *id);

/* Writers: append one line, "\n" included. `id` is exact id text or NULL:
 * an error without an id is written with "id":null when null_id is set, else
 * without an id member (MCP 2025-11-25 and later allow that). */
void rpc_write_result(struct buf *out, const char *id, const char *result_json);
void rpc_write_error(struct buf *out, const char *id, int null_id, int code, const char *message,
                     const cJSON *data);
void rpc_write_notification(struct buf *out, const char *method, const char *params_json);
void rpc_write_request(struct buf *out, const char *id, const char *method,
                       const char *params_json);

#endif
