/* ub-case
 * category: array-out-of-bounds
 * standard: C++17 [expr.add]/4
 * summary: writing buf[4] of char buf[4] inside a class overwrites the next member
 * ub: yes
 * ub-line: 19
 * twin: member-array.fixed.cpp
 */
#include <cstdio>

struct Buffer {
    char buf[4];
    char guard;
};

static void fill(Buffer &b, int n)
{
    for (int i = 0; i < n; i++)
        b.buf[i] = 'x';
}

int main(int argc, char **)
{
    Buffer b;
    b.guard = 'g';
    fill(b, 4 + argc);
    std::printf("%c\n", b.guard);
    return 0;
}
