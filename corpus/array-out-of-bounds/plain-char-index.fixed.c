/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: the fixed twin of plain-char-index.c: each byte is converted to unsigned char before it indexes count
 * ub: no
 * fixes: plain-char-index.c
 * fixed-line: 23
 */
#include <stdio.h>

static struct {
    int guard[128];
    int count[256];
    int bytes;
} tally;

int main(int argc, char **argv)
{
    (void)argv;
    const char *volatile text = "caf\xc3\xa9";   /* "café" in UTF-8 */
    int high = 0, astray = 0;
    for (const char *p = text; *p; p++) {
        tally.count[(unsigned char)*p] += argc;
        tally.bytes += argc;
    }
    for (int c = 0x80; c < 256; c++)
        high += tally.count[c];
    for (int i = 0; i < 128; i++)
        astray += tally.guard[i];
    printf("%d bytes, %d >= 0x80 counted, %d astray\n", tally.bytes, high, astray);
    return 0;
}
