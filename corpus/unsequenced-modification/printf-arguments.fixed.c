/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: the fixed twin of printf-arguments.c: the arguments are computed in order first
 * ub: no
 * fixes: printf-arguments.c
 * fixed-line: 17, 15, 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int i = argc;
    int first = i++;
    int second = i++;
    printf("%d %d\n", first, second);
    return 0;
}
