/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.3p2
 * summary: strcpy removes a prefix by copying a string onto itself, two characters to the left
 * ub: yes
 * note: a byte-by-byte forward copy gives 'cdef'; glibc's x86-64 strcpy copies with overlapping word stores and gives 'cfef'
 * ub-line: 17
 * twin: strcpy-self.fixed.c
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char buf[16] = "abcdef";
    strcpy(buf, buf + 1 + argc);
    puts(buf);
    return 0;
}
