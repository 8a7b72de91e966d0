/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: the fixed twin of packed-member.c: the member is copied to an aligned local first
 * ub: no
 * fixes: packed-member.c
 * fixed-line: 26, 25, 18
 */
#include <stdio.h>

struct __attribute__((packed)) message {
    char tag;
    int length;
};

__attribute__((noinline)) static int twice(const int *p)
{
    return *p * 2;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct message m = {'m', 20 + argc};
    int length = m.length;
    printf("%d\n", twice(&length));
    return 0;
}
