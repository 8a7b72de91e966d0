/* ub-case
 * category: use-after-scope
 * standard: C++17 [class.temporary]/6
 * summary: the fixed twin of temporary.cpp: the result is copied, not bound to a reference
 * ub: no
 * fixes: temporary.cpp
 * fixed-line: 15, 14
 */
#include <algorithm>
#include <cstdio>

int main(int argc, char **)
{
    const int biggest = std::max(argc * 10, argc * 20);
    std::printf("%d\n", biggest);
    return 0;
}
