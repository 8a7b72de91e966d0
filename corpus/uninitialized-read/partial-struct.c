/* ub-case
 * category: uninitialized-read
 * standard: C17 6.3.2.1p2
 * summary: a local struct whose second member is set only when argc > 1 is used in a comparison
 * ub: yes
 * note: unexploited, the member holds some fixed value, so exactly one line is printed
 * ub-line: 24
 * twin: partial-struct.fixed.c
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
    if (argc > 1)
        r.hi = 10;
    int hi = r.hi;
    if (hi >= r.lo)
        puts("ordered");
    if (hi < r.lo)
        puts("reversed");
    return 0;
}
