/* ub-case
 * category: null-library-argument
 * standard: C17 7.24.1p2
 * summary: memset on a null pointer with length 0, followed by a null check
 * ub: yes
 * note: C++17 [library.c] takes the C library rules over
 * ub-line: 15
 * twin: memset-null.fixed.cpp
 */
#include <cstdio>
#include <cstring>

__attribute__((noinline)) static bool clear(char *p, std::size_t n)
{
    std::memset(p, 0, n);
    return p != nullptr;
}

int main(int argc, char **)
{
    char buf[4];
    char *p = argc > 1 ? buf : nullptr;
    std::puts(clear(p, static_cast<std::size_t>(argc - 1)) ? "cleared" : "nothing to clear");
    return 0;
}
