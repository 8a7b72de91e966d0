/* ub-case
 * category: array-out-of-bounds
 * standard: C++17 [expr.add]/4
 * summary: the fixed twin of member-array.cpp: fill stops at the end of buf
 * ub: no
 * fixes: member-array.cpp
 * fixed-line: 19
 */
#include <cstdio>

struct Buffer {
    char buf[4];
    char guard;
};

static void fill(Buffer &b, int n)
{
    for (int i = 0; i < n && i < static_cast<int>(sizeof b.buf); i++)
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
