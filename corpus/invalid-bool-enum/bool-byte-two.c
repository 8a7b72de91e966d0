/* ub-case
 * category: invalid-bool-enum
 * standard: C17 6.2.6.1p5
 * summary: a _Bool whose byte holds 2 (not a valid value representation) is tested and negated
 * ub: yes
 * o0-exploited: yes
 * note: treating any non-zero byte as true prints 'true'; even at -O0 clang tests only bit 0 (prints 'false') and gcc computes !b as b ^ 1 (prints both)
 * ub-line: 28
 * twin: bool-byte-two.fixed.c
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void report(_Bool b)
{
    if (b)
        puts("true");
    if (!b)
        puts("false");
}

int main(int argc, char **argv)
{
    (void)argv;
    _Bool b;
    unsigned char byte = (unsigned char)(1 + argc);
    memcpy(&b, &byte, 1);
    report(b);
    return 0;
}
