/* ub-case
 * category: null-dereference
 * standard: C17 6.5.2.3p4
 * summary: the fixed twin of member-address.c: the check comes before the member address
 * ub: no
 * fixes: member-address.c
 * fixed-line: 21
 */
#include <stddef.h>
#include <stdio.h>

struct pair {
    int first;
    int second;
};

static int *second_of(struct pair *p)
{
    if (p == NULL)
        return NULL;
    int *s = &p->second;
    return s;
}

int main(int argc, char **argv)
{
    struct pair pr = {1, 2};
    struct pair *p = argc > 1 ? &pr : NULL;
    (void)argv;
    puts(second_of(p) == NULL ? "null" : "not null");
    return 0;
}
