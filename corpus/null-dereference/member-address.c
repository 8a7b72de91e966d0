/* ub-case
 * category: null-dereference
 * standard: C17 6.5.2.3p4
 * summary: &p->second with p null, followed by a null check of p
 * ub: yes
 * note: computing the member address does not load anything, so an unexploited run reaches the check
 * ub-line: 20
 * twin: member-address.fixed.c
 */
#include <stddef.h>
#include <stdio.h>

struct pair {
    int first;
    int second;
};

static int *second_of(struct pair *p)
{
    int *s = &p->second;
    if (p == NULL)
        return NULL;
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
