/* ub-case
 * category: uninitialized-read
 * standard: C17 6.3.2.1p2
 * summary: the fixed twin of partial-struct.c: hi starts at 0
 * ub: no
 * fixes: partial-struct.c
 * fixed-line: 24
 */
#include <stdio.h>

struct range {
    int lo;
    int hi;
};

int main(int argc, char **argv)
{
    (void)argv;
    struct range r;
    r.lo = 0;
    r.hi = 0;
    if (argc > 1)
        r.hi = 10;
    int hi = r.hi;
    if (hi >= r.lo)
        puts("ordered");
    if (hi < r.lo)
        puts("reversed");
    return 0;
}
