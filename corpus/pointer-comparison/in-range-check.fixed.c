/* ub-case
 * category: pointer-comparison
 * standard: C17 6.5.8p5
 * summary: the fixed twin of in-range-check.c: the addresses are compared as integers
 * ub: no
 * fixes: in-range-check.c
 * fixed-line: 18, 17
 */
#include <stdint.h>
#include <stdio.h>

static char pool[64];
static char other[16];

__attribute__((noinline)) static int in_pool(const char *p)
{
    uintptr_t a = (uintptr_t)p, begin = (uintptr_t)pool;
    return a >= begin && a - begin < sizeof pool;
}

int main(int argc, char **argv)
{
    (void)argv;
    puts(in_pool(other + argc) ? "inside" : "outside");
    return 0;
}
