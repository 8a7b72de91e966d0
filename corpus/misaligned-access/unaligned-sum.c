/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: a uint32_t pointer one byte into a buffer is used to sum the buffer; vector code may assume 4-byte alignment
 * ub: yes
 * note: the buffer comes from malloc, so reading it as uint32_t breaks no aliasing rule; only the alignment is wrong
 * ub-line: 19, 30
 * twin: unaligned-sum.fixed.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static uint32_t sum(const uint32_t *p, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    size_t size = 4 * 64 + 16;
    unsigned char *buf = malloc(size);
    if (!buf) return 1;
    memset(buf, argc, size);
    const uint32_t *p = (const uint32_t *)(buf + argc);
    printf("%08x\n", (unsigned)sum(p, 63));
    free(buf);
    return 0;
}
