/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: printf("%d %d", i++, i++): the argument evaluations are unsequenced in C
 * ub: yes
 * note: left-to-right evaluation prints '1 2', right-to-left prints '2 1'
 * ub-line: 16
 * twin: printf-arguments.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int i = argc;
    printf("%d %d\n", i++, i++);
    return 0;
}
