/* ub-case
 * category: invalid-bool-enum
 * standard: C17 6.2.6.1p5
 * summary: the fixed twin of bool-byte-two.c: the _Bool is assigned from a comparison of the byte
 * ub: no
 * fixes: bool-byte-two.c
 * fixed-line: 26
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
    b = byte != 0;
    report(b);
    return 0;
}
