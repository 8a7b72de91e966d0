/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: the address of an int member of a packed struct (GNU attribute) is passed on as a plain int pointer
 * ub: yes
 * ub-line: 25, 18
 * twin: packed-member.fixed.c
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
    printf("%d\n", twice(&m.length));
    return 0;
}
