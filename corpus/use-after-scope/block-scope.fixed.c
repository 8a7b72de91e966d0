/* ub-case
 * category: use-after-scope
 * standard: C17 6.2.4p2
 * summary: the fixed twin of block-scope.c: x lives in the enclosing block
 * ub: no
 * fixes: block-scope.c
 * fixed-line: 24
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int *p;
    int x;
    {
        x = 41 + argc;
        p = &x;
    }
    {
        volatile int y = 7;
        (void)y;
    }
    printf("%d\n", *p);
    return 0;
}
