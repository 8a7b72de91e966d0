/* ub-case
 * category: strict-aliasing
 * standard: C17 6.5p7
 * summary: an int is overwritten through a float pointer; the compiler may assume they do not alias
 * ub: yes
 * note: 0.0f has the same bits as the int 0
 * ub-line: 15
 * twin: int-float.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static int store_and_reload(int *i, float *f)
{
    *i = 1;
    *f = 0.0f;
    return *i;
}

int main(int argc, char **argv)
{
    (void)argv;
    int x = argc;
    printf("%d\n", store_and_reload(&x, (float *)&x));
    return 0;
}
