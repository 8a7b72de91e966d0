/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.1p2
 * summary: memcpy between overlapping parts of one buffer, shifting a string right by one
 * ub: yes
 * note: a memmove-like copy gives 'aabcdefgh', a byte-by-byte forward copy smears the first byte
 * ub-line: 18
 * twin: memcpy-shift.fixed.c
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[16] = "abcdefgh";
    size_t n = 7 + argc;
    memcpy(buf + 1, buf, n);
    buf[9] = '\0';
    puts(buf);
    return 0;
}
