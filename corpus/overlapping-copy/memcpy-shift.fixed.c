/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.1p2
 * summary: the fixed twin of memcpy-shift.c: memmove
 * ub: no
 * fixes: memcpy-shift.c
 * fixed-line: 17
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[16] = "abcdefgh";
    size_t n = 7 + argc;
    memmove(buf + 1, buf, n);
    buf[9] = '\0';
    puts(buf);
    return 0;
}
