/* ub-case
 * category: left-shift-negative
 * standard: C17 6.5.7p4
 * summary: the fixed twin of into-sign-bit.c: the shift is done in unsigned
 * ub: no
 * fixes: into-sign-bit.c
 * fixed-line: 14
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = (int)((unsigned)argc << 31);
    if (x < 0)
        printf("negative %d\n", x);
    else
        printf("not negative %d\n", x);
    return 0;
}
