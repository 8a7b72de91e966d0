/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.3p2
 * summary: the fixed twin of strcpy-self.c: memmove of the string and its terminator
 * ub: no
 * fixes: strcpy-self.c
 * fixed-line: 16
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[16] = "abcdef";
    memmove(buf, buf + 1 + argc, strlen(buf + 1 + argc) + 1);
    puts(buf);
    return 0;
}
