/* ub-case
 * category: incompatible-function-pointer
 * standard: C17 6.3.2.3p8
 * summary: a function taking int * is called through a pointer to a function taking char *
 * ub: yes
 * note: both pointers are passed the same way on x86-64, so the call works when unexploited
 * ub-line: 22, 21
 * twin: pointer-parameter.fixed.c
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
    void (*fp)(char *) = (void (*)(char *))show;
    fp((char *)&v);
    return 0;
}
