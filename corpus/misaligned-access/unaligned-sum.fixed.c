/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: the fixed twin of unaligned-sum.c: each word is copied out with memcpy
 * ub: no
 * fixes: unaligned-sum.c
 * fixed-line: 19, 20, 32
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static uint32_t sum(const unsigned char *p, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t w;
        memcpy(&w, p + 4 * i, sizeof w);
        s += w;
    }
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    size_t size = 4 * 64 + 16;
    unsigned char *buf = malloc(size);
    if (!buf) return 1;
    memset(buf, argc, size);
    const unsigned char *p = buf + argc;
    printf("%08x\n", (unsigned)sum(p, 63));
    free(buf);
    return 0;
}
