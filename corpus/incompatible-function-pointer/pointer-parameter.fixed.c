/* ub-case
 * category: incompatible-function-pointer
 * standard: C17 6.3.2.3p8
 * summary: the fixed twin of pointer-parameter.c: the pointer has the function's own type
 * ub: no
 * fixes: pointer-parameter.c
 * fixed-line: 21, 20
 */
#include <stdio.h>

static void show(int *p)
{
    printf("%d\n", *p);
}

int main(int argc, char **argv)
{
    (void)argv;
    int v = 41 + argc;
    void (*fp)(int *) = show;
    fp(&v);
    return 0;
}
