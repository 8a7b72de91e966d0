/* ub-case
 * category: use-after-scope
 * standard: C17 6.2.4p2
 * summary: a pointer to a block-scope variable is used after the block ended and another block began
 * ub: yes
 * note: unexploited, the two variables occupy different stack slots; sharing one slot prints 7
 * ub-line: 24
 * twin: block-scope.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int *p;
    {
        int x = 41 + argc;
        p = &x;
    }
    {
        volatile int y = 7;
        (void)y;
    }
    printf("%d\n", *p);
    return 0;
}
