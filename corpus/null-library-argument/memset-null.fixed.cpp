/* ub-case
 * category: null-library-argument
 * standard: C17 7.24.1p2
 * summary: the fixed twin of memset-null.cpp: memset only for a non-null pointer
 * ub: no
 * fixes: memset-null.cpp
 * fixed-line: 15, 14
 */
#include <cstdio>
#include <cstring>

__attribute__((noinline)) static bool clear(char *p, std::size_t n)
{
    if (p != nullptr)
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
