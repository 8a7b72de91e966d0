/* ub-case
 * category: pointer-comparison
 * standard: C17 6.5.8p5
 * summary: a 'does this pointer point into my pool' check applied to a pointer into another object
 * ub: yes
 * note: comparing addresses the pointer is found to lie outside the pool, whatever the layout
 * ub-line: 17
 * twin: in-range-check.fixed.c
 */
#include <stdio.h>

static char pool[64];
static char other[16];

__attribute__((noinline)) static int in_pool(const char *p)
{
    return p >= pool && p < pool + sizeof pool;
}

int main(int argc, char **argv)
{
    (void)argv;
    puts(in_pool(other + argc) ? "inside" : "outside");
    return 0;
}
