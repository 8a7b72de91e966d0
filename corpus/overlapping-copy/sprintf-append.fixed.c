/* ub-case
 * category: overlapping-copy
 * standard: C17 7.21.6.6p2
 * summary: the fixed twin of sprintf-append.c: the old text is copied out before sprintf writes the buffer
 * ub: no
 * fixes: sprintf-append.c
 * fixed-line: 18, 16, 17
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[64] = "log";
    char old[64];
    strcpy(old, buf);
    snprintf(buf, sizeof buf, "%s: %s", old + argc - 1, old);
    puts(buf);
    return 0;
}
