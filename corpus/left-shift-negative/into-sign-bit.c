/* ub-case
 * category: left-shift-negative
 * standard: C17 6.5.7p4
 * summary: 1 << 31 shifts a one into the sign bit of an int (undefined in C, defined in C++14 and later)
 * ub: yes
 * ub-line: 14
 * twin: into-sign-bit.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = argc << 31;
    if (x < 0)
        printf("negative %d\n", x);
    else
        printf("not negative %d\n", x);
    return 0;
}
