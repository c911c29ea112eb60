/* An example downstream MCP server in C: a small maze game in the spirit of
 * the WebMCP maze demo. The player starts in the north-west corner and must
 * leave through the locked door in the south wall of the south-east corner;
 * the key lies somewhere in the maze. Fog of war: a tool call only tells what is next to the player.
 * Tools: look, move {direction}, pickup, use {item}.
 *
 * Self-contained on purpose (stdio, newline-delimited JSON-RPC, cJSON only),
 * so it also shows how little a working MCP server needs. Build:
 *   cc -O2 -o maze-server maze_server.c -lcjson
 * Run: maze-server [--seed N] [--size N]   (it speaks MCP on stdin/stdout) */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 16
enum { N = 1, E = 2, S = 4, W = 8 };

static const struct {
    const char *name;
    int bit, dx, dy, opposite;
} dirs[4] = {{"north", N, 0, -1, S}, {"east", E, 1, 0, W}, {"south", S, 0, 1, N}, {"west", W, -1, 0, E}};

struct game {
    int size;
    unsigned char open[MAX][MAX]; /* bits of the open sides of each cell */
    int x, y, key_x, key_y;
    int has_key, key_taken, door_open, escaped, moves;
    unsigned long rng;
};

static struct game g;

/* --- the maze ---------------------------------------------------------------------- */

static unsigned next_random(void)
{
    g.rng = g.rng * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned) (g.rng >> 33);
}

/* Recursive backtracker with an explicit stack: a perfect maze. */
static void carve(void)
{
    static int stack[MAX * MAX][2];
    unsigned char visited[MAX][MAX] = {{0}};
    int top = 0;
    stack[top][0] = 0, stack[top][1] = 0;
    visited[0][0] = 1;
    while (top >= 0) {
        int cx = stack[top][0], cy = stack[top][1], options[4], n = 0;
        for (int d = 0; d < 4; d++) {
            int nx = cx + dirs[d].dx, ny = cy + dirs[d].dy;
            if (nx >= 0 && ny >= 0 && nx < g.size && ny < g.size && !visited[ny][nx])
                options[n++] = d;
        }
        if (n == 0) {
            top--;
            continue;
        }
        int d = options[next_random() % (unsigned) n];
        int nx = cx + dirs[d].dx, ny = cy + dirs[d].dy;
        g.open[cy][cx] |= (unsigned char) dirs[d].bit;
        g.open[ny][nx] |= (unsigned char) dirs[d].opposite;
        visited[ny][nx] = 1;
        top++;
        stack[top][0] = nx, stack[top][1] = ny;
    }
}

/* The key goes to the dead end farthest from the start (breadth-first). */
static void place_key(void)
{
    int dist[MAX][MAX], queue[MAX * MAX][2], head = 0, tail = 0, best = -1;
    memset(dist, -1, sizeof dist);
    dist[0][0] = 0;
    queue[tail][0] = 0, queue[tail++][1] = 0;
    while (head < tail) {
        int cx = queue[head][0], cy = queue[head++][1];
        int exits = 0;
        for (int d = 0; d < 4; d++) {
            if (!(g.open[cy][cx] & dirs[d].bit))
                continue;
            exits++;
            int nx = cx + dirs[d].dx, ny = cy + dirs[d].dy;
            if (dist[ny][nx] < 0) {
                dist[ny][nx] = dist[cy][cx] + 1;
                queue[tail][0] = nx, queue[tail++][1] = ny;
            }
        }
        int corner = cx == g.size - 1 && cy == g.size - 1;
        if (exits == 1 && !corner && dist[cy][cx] > best) {
            best = dist[cy][cx];
            g.key_x = cx, g.key_y = cy;
        }
    }
}

static void new_game(unsigned long seed, int size)
{
    memset(&g, 0, sizeof g);
    g.size = size;
    g.rng = seed * 2654435761ul + 1;
    carve();
    place_key();
}

/* --- tool results --------------------------------------------------------------------- */

/* The door is in the south wall of the south-east corner cell. */
static int at_door(void)
{
    return g.x == g.size - 1 && g.y == g.size - 1;
}

/* What the player perceives where it stands. */
static cJSON *view(void)
{
    cJSON *v = cJSON_CreateObject();
    cJSON *pos = cJSON_AddObjectToObject(v, "position");
    cJSON_AddNumberToObject(pos, "x", g.x);
    cJSON_AddNumberToObject(pos, "y", g.y);
    cJSON *exits = cJSON_AddArrayToObject(v, "exits");
    const char *door = NULL;
    for (int d = 0; d < 4 && !g.escaped; d++) {
        if (g.open[g.y][g.x] & dirs[d].bit)
            cJSON_AddItemToArray(exits, cJSON_CreateString(dirs[d].name));
    }
    if (at_door() && !g.escaped) {
        door = "south";
        cJSON_AddItemToArray(exits, cJSON_CreateString("south"));
    }
    int key_here = !g.key_taken && g.x == g.key_x && g.y == g.key_y;
    if (key_here)
        cJSON_AddStringToObject(v, "here", "key");
    else
        cJSON_AddNullToObject(v, "here");
    if (door) {
        cJSON *dd = cJSON_AddObjectToObject(v, "door");
        cJSON_AddStringToObject(dd, "direction", door);
        cJSON_AddBoolToObject(dd, "locked", !g.door_open);
    } else {
        cJSON_AddNullToObject(v, "door");
    }
    cJSON *inv = cJSON_AddArrayToObject(v, "inventory");
    if (g.has_key)
        cJSON_AddItemToArray(inv, cJSON_CreateString("key"));
    cJSON_AddBoolToObject(v, "escaped", g.escaped);
    cJSON_AddNumberToObject(v, "moves", g.moves);
    return v;
}

/* A CallToolResult carrying `value` as structuredContent and as JSON text. */
static cJSON *ok_result(cJSON *value)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *content = cJSON_AddArrayToObject(r, "content");
    cJSON *t = cJSON_CreateObject();
    char *text = cJSON_PrintUnformatted(value);
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", text);
    free(text);
    cJSON_AddItemToArray(content, t);
    cJSON_AddItemToObject(r, "structuredContent", value);
    return r;
}

static cJSON *error_result(const char *message)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *content = cJSON_AddArrayToObject(r, "content");
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", message);
    cJSON_AddItemToArray(content, t);
    cJSON_AddTrueToObject(r, "isError");
    return r;
}

static cJSON *tool_move(const cJSON *args)
{
    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(args, "direction");
    int d = -1;
    for (int i = 0; i < 4 && cJSON_IsString(dir); i++)
        if (strcmp(dir->valuestring, dirs[i].name) == 0)
            d = i;
    if (d < 0)
        return error_result("direction must be one of north, east, south, west");
    if (g.escaped)
        return error_result("You have already escaped the maze.");
    if (at_door() && dirs[d].bit == S) {
        if (!g.door_open)
            return error_result("The door to the south is locked.");
        g.moves++;
        g.escaped = 1; /* the position stays that of the last cell */
        return ok_result(view());
    }
    if (!(g.open[g.y][g.x] & dirs[d].bit)) {
        char msg[80];
        snprintf(msg, sizeof msg, "There is a wall to the %s.", dirs[d].name);
        return error_result(msg);
    }
    int nx = g.x + dirs[d].dx, ny = g.y + dirs[d].dy;
    g.x = nx, g.y = ny;
    g.moves++;
    return ok_result(view());
}

static cJSON *tool_pickup(void)
{
    if (g.key_taken || g.x != g.key_x || g.y != g.key_y)
        return error_result("There is nothing here to pick up.");
    g.key_taken = g.has_key = 1;
    return ok_result(view());
}

static cJSON *tool_use(const cJSON *args)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(args, "item");
    if (!cJSON_IsString(item) || strcmp(item->valuestring, "key") != 0)
        return error_result("You can only use: key.");
    if (!g.has_key)
        return error_result("You do not have a key.");
    if (!at_door())
        return error_result("There is no door next to you.");
    g.door_open = 1;
    return ok_result(view());
}

/* --- MCP --------------------------------------------------------------------------------- */

static const char *tools_json =
    "[{\"name\":\"look\",\"description\":\"Describe where you stand: position, open exits, "
    "what lies here, a door next to you, your inventory.\",\"inputSchema\":{\"type\":\"object\","
    "\"properties\":{},\"additionalProperties\":false},\"outputSchema\":{\"$ref\":\"#/$defs/v\"}},"
    "{\"name\":\"move\",\"description\":\"Walk one cell in a direction. Fails at a wall or a "
    "locked door.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"direction\":{\"type\":"
    "\"string\",\"enum\":[\"north\",\"east\",\"south\",\"west\"]}},\"required\":[\"direction\"],"
    "\"additionalProperties\":false},\"outputSchema\":{\"$ref\":\"#/$defs/v\"}},"
    "{\"name\":\"pickup\",\"description\":\"Pick up the item where you stand.\",\"inputSchema\":{"
    "\"type\":\"object\",\"properties\":{},\"additionalProperties\":false},\"outputSchema\":{"
    "\"$ref\":\"#/$defs/v\"}},"
    "{\"name\":\"use\",\"description\":\"Use an item from your inventory, e.g. the key next to "
    "the locked door.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"item\":{\"type\":"
    "\"string\"}},\"required\":[\"item\"],\"additionalProperties\":false},\"outputSchema\":{"
    "\"$ref\":\"#/$defs/v\"}}]";

static const char *view_schema =
    "{\"type\":\"object\",\"properties\":{\"position\":{\"type\":\"object\",\"properties\":{\"x\":"
    "{\"type\":\"integer\"},\"y\":{\"type\":\"integer\"}},\"required\":[\"x\",\"y\"]},\"exits\":{"
    "\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"north\",\"east\",\"south\","
    "\"west\"]}},\"here\":{\"type\":[\"string\",\"null\"]},\"door\":{\"anyOf\":[{\"type\":\"null\"},"
    "{\"type\":\"object\",\"properties\":{\"direction\":{\"type\":\"string\"},\"locked\":{\"type\":"
    "\"boolean\"}},\"required\":[\"direction\",\"locked\"]}]},\"inventory\":{\"type\":\"array\","
    "\"items\":{\"type\":\"string\"}},\"escaped\":{\"type\":\"boolean\"},\"moves\":{\"type\":"
    "\"integer\"}},\"required\":[\"position\",\"exits\",\"here\",\"door\",\"inventory\",\"escaped\","
    "\"moves\"]}";

/* Tool list with each outputSchema made self-contained (no shared $defs). */
static cJSON *tool_list(void)
{
    cJSON *tools = cJSON_Parse(tools_json);
    cJSON *t;
    cJSON_ArrayForEach(t, tools)
    {
        cJSON_ReplaceItemInObject(t, "outputSchema", cJSON_Parse(view_schema));
    }
    return tools;
}

static cJSON *handle(const char *method, const cJSON *params, int *error_code)
{
    if (strcmp(method, "initialize") == 0) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
        static const char *known[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
        const char *answer = "2025-06-18";
        for (int i = 0; i < 4 && cJSON_IsString(v); i++)
            if (strcmp(v->valuestring, known[i]) == 0)
                answer = known[i];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "protocolVersion", answer);
        cJSON_AddObjectToObject(cJSON_AddObjectToObject(r, "capabilities"), "tools");
        cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
        cJSON_AddStringToObject(info, "name", "maze");
        cJSON_AddStringToObject(info, "version", "1.0.0");
        return r;
    }
    if (strcmp(method, "ping") == 0)
        return cJSON_CreateObject();
    if (strcmp(method, "tools/list") == 0) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddItemToObject(r, "tools", tool_list());
        return r;
    }
    if (strcmp(method, "tools/call") == 0) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
        const char *n = cJSON_IsString(name) ? name->valuestring : "";
        if (strcmp(n, "look") == 0)
            return ok_result(view());
        if (strcmp(n, "move") == 0)
            return tool_move(args);
        if (strcmp(n, "pickup") == 0)
            return tool_pickup();
        if (strcmp(n, "use") == 0)
            return tool_use(args);
        *error_code = -32602;
        return NULL;
    }
    *error_code = -32601;
    return NULL;
}

static void reply(const cJSON *id, cJSON *result, int code)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
    if (result) {
        cJSON_AddItemToObject(m, "result", result);
    } else {
        cJSON *e = cJSON_AddObjectToObject(m, "error");
        cJSON_AddNumberToObject(e, "code", code);
        cJSON_AddStringToObject(e, "message", code == -32601 ? "Method not found" : "Invalid params");
    }
    char *text = cJSON_PrintUnformatted(m);
    printf("%s\n", text);
    fflush(stdout);
    free(text);
    cJSON_Delete(m);
}

int main(int argc, char **argv)
{
    unsigned long seed = 7;
    int size = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seed") == 0)
            seed = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--size") == 0)
            size = atoi(argv[i + 1]);
    }
    if (size < 2 || size > MAX) {
        fprintf(stderr, "maze-server: --size must be 2 to %d\n", MAX);
        return 2;
    }
    new_game(seed, size);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        cJSON *m = cJSON_ParseWithLength(line, (size_t) len);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
        const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
        if (cJSON_IsString(method) && id) {
            int code = 0;
            cJSON *r = handle(method->valuestring, cJSON_GetObjectItemCaseSensitive(m, "params"), &code);
            reply(id, r, code);
        }
        cJSON_Delete(m);
    }
    free(line);
    return 0;
}
