/* ub-case
 * category: overlapping-copy
 * standard: C17 7.21.6.6p2
 * summary: sprintf appends to a buffer that is also its %s argument
 * ub: yes
 * note: glibc writes 'log: ' before it reads the second argument, giving 'log: log: '; reading the arguments first gives 'log: log'
 * ub-line: 16
 * twin: sprintf-append.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[64] = "log";
    sprintf(buf, "%s: %s", buf + argc - 1, buf);
    puts(buf);
    return 0;
}
