/* mcp-codemode entry point (placeholder until the CLI lands). */
#include <stdio.h>

int main(void)
{
    puts("mcp-codemode");
    return 0;
}
