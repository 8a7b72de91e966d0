/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: the bytes of a UTF-8 string are tallied in count[256] indexed by a plain char; where char is signed, 0xc3 and 0xa9 index count[-61] and count[-87]
 * ub: yes
 * note: UB only where char is signed (x86-64): the two increments land in guard, the member before count, and no byte >= 0x80 is counted; where char is unsigned (arm, aarch64, riscv64) the indices are 195 and 169, in bounds
 * ub-line: 24
 * twin: plain-char-index.fixed.c
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
        tally.count[*p] += argc;
        tally.bytes += argc;
    }
    for (int c = 0x80; c < 256; c++)
        high += tally.count[c];
    for (int i = 0; i < 128; i++)
        astray += tally.guard[i];
    printf("%d bytes, %d >= 0x80 counted, %d astray\n", tally.bytes, high, astray);
    return 0;
}
